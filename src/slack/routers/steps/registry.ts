/** Workflow Builder steps, gathered from the feature folders (features/features.ts). */
import { features } from '../../features/features.js';
import type { WorkflowStep } from '../../steps/workflow-step.js';

export type { StepContext, StepDefinition, WorkflowStep } from '../../steps/workflow-step.js';

export const workflowSteps: WorkflowStep[] = features.flatMap((f) => f.steps ?? []);
