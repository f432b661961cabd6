/** A local Slack for e2e tests, the demo and benchmarks (see start-local-slack.ts). */
export { type SlackSignature, signSlackRequest } from './sign-request.js';
export { SLACK_LIMITS } from './slack-limits.js';
export { startLocalSlack } from './start-local-slack.js';
export type {
  AppResponse,
  BlockActionOptions,
  ChannelInit,
  ChannelState,
  FunctionDefinitions,
  FunctionExecution,
  FunctionExecutionOptions,
  FunctionParameter,
  LocalSlack,
  LocalSlackOptions,
  MessageMetadata,
  RecordedCall,
  ResponseUrlPost,
  SlackActivity,
  SlashCommandOptions,
  StoredFile,
  StoredMessage,
  StoredView,
  UserInit,
  ViewSubmissionOptions,
} from './types.js';
export { type BlockSurface, type BlocksProblem, validateBlocks } from './validate-blocks.js';
export { waitFor } from './wait-for.js';
