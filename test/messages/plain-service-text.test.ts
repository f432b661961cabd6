import { describe, expect, it } from 'vitest';
import { plainServiceText } from '../../src/messages/plain-service-text.js';

describe('plainServiceText', () => {
  it('drops sentences that point a developer at a response field or an endpoint', () => {
    expect(
      plainServiceText(
        'Generating content ideas for Acme Analytics. Check meta.generation_status on GET /get-content-ideas.',
      ),
    ).toBe('Generating content ideas for Acme Analytics.');
    expect(plainServiceText('Poll /crawler/submit-to-search/status for progress.')).toBeUndefined();
  });

  it('drops parameter notes and says parameter names in words', () => {
    expect(plainServiceText('Market FR already exists (parameter location)')).toBe(
      'Market FR already exists.',
    );
    expect(
      plainServiceText(
        "Invalid parameter 'days_back': must be between 1 and 30: days_back: must be between 1 and 30",
      ),
    ).toBe('The number of days must be between 1 and 30.');
    expect(
      plainServiceText(
        'domain is required for view=sources: domain: pass an exact domain such as www.g2.com',
      ),
    ).toBe(
      'The domain is required for the view “sources”: the domain: pass an exact domain such as www.g2.com.',
    );
    expect(plainServiceText('Validation failed: limit: must be ≤ 200')).toBe(
      'Validation failed: the number of rows must be ≤ 200.',
    );
  });

  it('rewords the messages the service is known to send', () => {
    expect(plainServiceText('No finding nope for this brand')).toBe(
      "There is no access finding “nope” for this brand; the crawler's access view lists the current ones.",
    );
    expect(
      plainServiceText(
        'No market 0f9e2c1a-1111-4222-8333-444455556666 on Acme Analytics (parameter market_id)',
      ),
    ).toBe('That market is no longer on Acme Analytics; it may have been removed already.');
    expect(
      plainServiceText(
        'Brand not found: brand_id: No brand 0f9e2c1a-1111-4222-8333-444455556666 for this API key',
      ),
    ).toBe(
      'This brand is no longer visible to the API key (it may have been removed, or the key lost access).',
    );
  });

  it('keeps the rest as data: escaped, never a mention or a link', () => {
    expect(plainServiceText('No finding <!channel> for this brand')).toContain('“&lt;!channel&gt;”');
    expect(plainServiceText('Refused <https://evil.example|click> & more')).toBe(
      'Refused &lt;https://evil.example|click&gt; &amp; more.',
    );
    expect(plainServiceText('   ')).toBeUndefined();
    expect(plainServiceText(null)).toBeUndefined();
  });
});
