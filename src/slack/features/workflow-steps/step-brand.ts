/**
 * What every step starts with: the person it runs for (a Slack guest is refused, as
 * `/visibility` refuses one) and the brand it is about, named as in a command: its name,
 * an alias or an unambiguous start of either.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { resolveBrandForChannel } from '../../commands/resolve-brand-for-channel.js';
import type { StepContext, StepParameter } from '../../steps/workflow-step.js';
import { optionalUserId, requiredText } from './step-inputs.js';

export const BRAND_INPUT: StepParameter = {
  type: 'string',
  title: 'Brand',
  description: 'The brand: its name, one of its aliases, or the start of either.',
  is_required: true,
  hint: 'For example: Acme Analytics',
};

export const RUN_FOR_INPUT: StepParameter = {
  type: 'slack#/types/user_id',
  title: 'Run for',
  description:
    'The person the step runs for. Brand data is for workspace members: a guest is refused, as with /visibility.',
  is_required: false,
  hint: 'Usually the person who used this workflow',
};

export async function stepBrand(ctx: StepContext): Promise<Brand> {
  const user = optionalUserId(ctx.inputs, 'user', RUN_FOR_INPUT.title);
  if (user !== undefined) await ctx.ensureMember(user);
  const name = requiredText(ctx.inputs, 'brand', BRAND_INPUT.title);
  // A brand is always named here, so the channel's default brand (and the database) is not read.
  return resolveBrandForChannel(ctx.deps, '', name);
}
