/**
 * The manifests declare the steps the code registers, exactly: a step Workflow Builder
 * offers but the bot does not handle (or an input the code does not read) would fail every
 * run. Both manifests carry them, and custom steps need an org-ready app.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workflowSteps } from '../../src/slack/routers/steps/registry.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const manifest = (file: string) =>
  parse(readFileSync(`${repo}/${file}`, 'utf8')) as {
    functions: Record<string, unknown>;
    settings: { org_deploy_enabled: boolean };
  };

/** The manifest entry for a step: each parameter carries its own name, as Slack's schema has it. */
function expected() {
  const named = (params: Record<string, object>) =>
    Object.fromEntries(Object.entries(params).map(([name, p]) => [name, { ...p, name }]));
  return Object.fromEntries(
    workflowSteps.map((s) => [
      s.callbackId,
      {
        title: s.definition.title,
        description: s.definition.description,
        input_parameters: named(s.definition.input_parameters),
        output_parameters: named(s.definition.output_parameters),
      },
    ]),
  );
}

describe.each(['manifest.yml', 'manifest.socket-mode.yml'])('%s', (file) => {
  it('declares every workflow step the code registers, as the code defines it', () => {
    expect(manifest(file).functions).toEqual(expected());
  });

  it('is org-ready, as custom steps require', () => {
    expect(manifest(file).settings.org_deploy_enabled).toBe(true);
  });
});

it('registers the three steps', () => {
  expect(workflowSteps.map((s) => s.callbackId)).toEqual([
    'get_brand_visibility',
    'list_lost_citations',
    'post_digest_now',
  ]);
  for (const s of workflowSteps) {
    expect(s.definition.title.length).toBeGreaterThan(0);
    for (const p of Object.values({ ...s.definition.input_parameters, ...s.definition.output_parameters })) {
      expect(p.description.length).toBeGreaterThan(0);
    }
  }
});
