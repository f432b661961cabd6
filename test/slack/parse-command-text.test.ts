import { describe, expect, it } from 'vitest';
import {
  isParseError,
  type ParsedCommand,
  type ParseError,
  parseCommandText,
} from '../../src/slack/commands/parse-command-text.js';

function ok(r: ParsedCommand | ParseError): ParsedCommand {
  if (isParseError(r)) throw new Error(`unexpected parse error: ${r.error}`);
  return r;
}

describe('parseCommandText', () => {
  it('splits words and drops extra whitespace', () => {
    expect(ok(parseCommandText('  brands   list\t x '))).toEqual({
      positional: ['brands', 'list', 'x'],
      flags: {},
      raw: ['brands', 'list', 'x'],
    });
    expect(ok(parseCommandText(''))).toEqual({ positional: [], flags: {}, raw: [] });
  });

  it('keeps each positional argument as typed, quotes and trailing commas included', () => {
    const parsed = ok(parseCommandText('aliases x set Initech, “Initech, Inc.”, --limit 3 Rocket'));
    expect(parsed.positional).toEqual(['aliases', 'x', 'set', 'Initech,', 'Initech, Inc.,', 'Rocket']);
    expect(parsed.raw).toEqual(['aliases', 'x', 'set', 'Initech,', '"Initech, Inc.",', 'Rocket']);
  });

  it('groups double- and single-quoted arguments', () => {
    expect(ok(parseCommandText('citations "Acme Analytics" \'x y\'')).positional).toEqual([
      'citations',
      'Acme Analytics',
      'x y',
    ]);
  });

  it('normalises the smart quotes Slack clients type', () => {
    expect(ok(parseCommandText('citations “Acme Analytics” ‘Globex Corp’')).positional).toEqual([
      'citations',
      'Acme Analytics',
      'Globex Corp',
    ]);
  });

  it('keeps an apostrophe inside a word', () => {
    expect(ok(parseCommandText("use O'Reilly")).positional).toEqual(['use', "O'Reilly"]);
    expect(ok(parseCommandText('use O’Reilly')).positional).toEqual(['use', "O'Reilly"]);
  });

  it('reads --flag value, --flag=value and quoted values', () => {
    expect(
      ok(parseCommandText('citations acme --days 14 --domain=example.com --name "Acme Labs"')).flags,
    ).toEqual({
      days: '14',
      domain: 'example.com',
      name: 'Acme Labs',
    });
    expect(ok(parseCommandText('x --label="two words"')).flags).toEqual({ label: 'two words' });
  });

  it('treats known boolean flags as switches and a trailing flag as true', () => {
    const r = ok(parseCommandText('crawler --compare Acme --verbose'));
    expect(r.flags).toEqual({ compare: true, verbose: true });
    expect(r.positional).toEqual(['crawler', 'Acme']);
    expect(ok(parseCommandText('x --a --b 2')).flags).toEqual({ a: true, b: '2' });
    expect(ok(parseCommandText('x --share now', { booleanFlags: new Set() })).flags).toEqual({
      share: 'now',
    });
  });

  it('reads an em dash from autocorrect as --', () => {
    expect(ok(parseCommandText('crawler acme —compare')).flags).toEqual({ compare: true });
    expect(ok(parseCommandText('x –days 3')).flags).toEqual({ days: '3' });
  });

  it('keeps a quoted "--x" positional and lowercases flag names', () => {
    const r = ok(parseCommandText('find "--not-a-flag" --DAYS=3'));
    expect(r.positional).toEqual(['find', '--not-a-flag']);
    expect(r.flags).toEqual({ days: '3' });
  });

  it('undoes the HTML escaping Slack applies to &, < and >', () => {
    expect(ok(parseCommandText('use "R&amp;D &lt;EU&gt;"')).positional).toEqual(['use', 'R&D <EU>']);
  });

  it('reports an unterminated quote', () => {
    const r = parseCommandText('citations "Acme Analytics --days 3');
    expect(isParseError(r)).toBe(true);
    expect((r as ParseError).error).toMatch(/never closed/);
    expect(isParseError(parseCommandText("x 'open"))).toBe(true);
    expect(isParseError(parseCommandText('x --name="open'))).toBe(true);
  });

  it('rejects a flag without a name', () => {
    expect(isParseError(parseCommandText('x --=3'))).toBe(true);
  });
});
