import type { Feature } from '../feature.js';
import { aliases } from './aliases.js';
import { aliasesSubmission } from './aliases-submission.js';
import { editAliasesButton } from './edit-aliases-button.js';

export const aliasesFeature: Feature = {
  subcommands: [aliases],
  actions: [editAliasesButton],
  submissions: [aliasesSubmission],
};
