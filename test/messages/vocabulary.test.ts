import { describe, expect, it } from 'vitest';
import {
  abbreviation,
  botTypeName,
  codeValueText,
  fieldName,
  httpStatusText,
  humanizeCode,
  intentName,
  modelName,
  pageStatusName,
  pageTypeName,
} from '../../src/messages/vocabulary.js';

describe('vocabulary', () => {
  it('names the codes people meet in words', () => {
    expect(pageTypeName('alternatives_page')).toBe('Alternatives page');
    expect(pageTypeName('faq_page')).toBe('FAQ page');
    expect(intentName('best_for')).toBe('Best for');
    expect(modelName('gemini-2.5-flash')).toBe('Gemini 2.5 Flash');
    expect(modelName('google-ai-overviews')).toBe('Google AI Overviews');
    expect(modelName('chatgpt')).toBe('ChatGPT');
    expect(modelName('acme-gpt-5')).toBe('Acme GPT 5');
    expect(intentName('search')).toBe('Search');
    expect(botTypeName('training')).toBe('Training bot');
    expect(pageStatusName('converting')).toBe('Cited and bringing visitors');
    expect(abbreviation('DR')).toBe('domain rating');
    expect(abbreviation('dog')).toBeUndefined();
  });

  it('humanises codes nobody listed', () => {
    expect(humanizeCode('brand_new_thing')).toBe('Brand new thing');
    expect(humanizeCode('lastSeenUrlCount')).toBe('Last seen URL count');
    expect(pageTypeName('webinar_recap')).toBe('Webinar recap');
    expect(fieldName('weekly_growth_pct')).toBe('weekly growth');
    expect(fieldName('first_byte_ms')).toBe('first byte');
    expect(fieldName('response_ms')).toBe('response time');
    expect(fieldName('llms')).toBe('llms.txt');
  });

  it('explains HTTP statuses and turns code values into words, leaving prose alone', () => {
    expect(httpStatusText(404)).toBe('404 Not found');
    expect(httpStatusText(418)).toBe('418 Refused');
    expect(codeValueText('blocked_by_firewall')).toBe('blocked by a firewall');
    expect(codeValueText('google-ai-overviews', 'model')).toBe('Google AI Overviews');
    expect(codeValueText('server_side')).toBe('Server side');
    expect(codeValueText('Cited and converting')).toBe('Cited and converting');
    expect(codeValueText('OAI-SearchBot')).toBe('OAI-SearchBot');
    expect(codeValueText('2026-11-24', 'last_seen')).toBe('2026-11-24');
    expect(codeValueText('amazon', 'platform')).toBe('Amazon');
  });
});
