import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  countFigure,
  type Figure,
  figure,
  figureName,
  figureText,
  figureWords,
  GLOSSARY,
} from '../../src/figures/glossary.js';

/** The README's table row for one entry: the glossary is the source, the README its copy. */
function readmeRow(f: Figure): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const fields = f.fields.map((x) => `\`${cell(x)}\``).join('; ');
  const shown = f.shown ? ` ${cell(f.shown)}` : '';
  return `| ${f.name} | ${cell(f.counts)} | ${fields} | ${cell(f.rounding)} | ${cell(f.explanation)}${shown} |`;
}

describe('the glossary', () => {
  it('has the figures the screens show, each under one name', () => {
    const names = GLOSSARY.map((f) => f.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const id of [
      'citedPages',
      'citations',
      'brandMentions',
      'competitorMentions',
      'uniqueSources',
      'sentiment',
      'aiCrawlerVisits',
      'visitsByCrawler',
      'visitsByBotType',
      'searchCrawlerVisits',
      'aiPagesRequests',
      'aiPagesUsage',
      'ideaScore',
    ] as const) {
      const f = figure(id);
      expect(f.fields.length).toBeGreaterThan(0);
      expect(f.counts).not.toBe('');
      expect(f.explanation).toMatch(/\.$/);
    }
    // "Citations" is one thing only: the times cited. Pages are counted by another figure.
    expect(figureName('citations')).toBe('Citations');
    expect(figureName('citedPages')).toBe('Cited pages');
    expect(figure('citedPages').fields.join(' ')).toContain('total_current');
    expect(figure('citations').fields.join(' ')).toContain('total_citations');
    expect(figure('competitorMentions').fields.join(' ')).toContain('competitor_time_series');
  });

  it('writes each value in its unit and rounding', () => {
    expect(figureText('citedPages', 64)).toBe('64');
    expect(figureText('citations', 1234)).toBe('1,234');
    expect(figureText('sentiment', 54.9)).toBe('55/100');
    expect(figureText('ideaScore', 94)).toBe('94/100');
    expect(figureText('aiPagesUsage', 79.6)).toBe('79 %');
    expect(figureText('aiCrawlerVisits', null)).toBe('—');
    expect(countFigure('citedPages', 1)).toBe('1 cited page');
    expect(countFigure('citedPages', 64)).toBe('64 cited pages');
    expect(countFigure('brandMentions', 39)).toBe('39 brand mentions');
    expect(countFigure('sentiment', 55)).toBe('55/100');
    expect(figureWords('citedPages')).toBe('cited pages');
    expect(figureWords('aiCrawlerVisits')).toBe('AI crawler visits');
  });

  it('is the table the README shows, row for row', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const f of GLOSSARY) expect(readme).toContain(readmeRow(f));
  });
});
