import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, supportedNodeRange, unsupportedNodeMessage } from '../src/supported-node.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

describe('supported Node lines', () => {
  it('are the ones package.json "engines" names', () => {
    expect(supportedNodeRange()).toBe(pkg.engines.node);
  });

  it.each(['22.19.0', '22.20.5', 'v22.23.3', '24.0.0', '24.11.1', '26.0.0', '26.12.1', '28.1.0'])(
    '%s is supported',
    (version) => {
      expect(isSupportedNode(version)).toBe(true);
      expect(unsupportedNodeMessage(version)).toBeUndefined();
    },
  );

  it.each(['20.20.2', '18.19.1', '22.18.0', '22.0.0', '23.11.0', '25.2.1', '16.20.2', 'garbage'])(
    '%s is not, and hears which are in one sentence',
    (version) => {
      expect(isSupportedNode(version)).toBe(false);
      const message = unsupportedNodeMessage(version)!;
      expect(message).toBe(
        `visibility-bot needs Node.js 22 (22.19 or later), 24, or 26 or later, but this is Node.js ${version}: install a supported version from https://nodejs.org/en/download and run the command again.`,
      );
      expect(message.split(/[.!?] /)).toHaveLength(1);
    },
  );
});
