/**
 * `crawler <brand> submit <url>` sends only pages of the brand's own website: an off-site
 * URL is refused with the brand's domain named, before anything reaches the service.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { useReadHarness, visibleText } from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();

describe('crawler submit checks the URLs are on the brand’s website', () => {
  it.each([
    ['another site', 'https://www.example.org/pricing'],
    ['a look-alike host that only starts with the domain', 'https://acmeanalytics.com.evil.example/pricing'],
    ['the domain in the path or query only', 'https://evil.example/acmeanalytics.com?site=acmeanalytics.com'],
    ['a host that only ends with the same letters', 'https://notacmeanalytics.com/'],
  ])('refuses %s, names the brand’s domain and sends nothing', async (_, url) => {
    const { reply } = await h.command(
      `crawler "Acme Analytics" submit https://www.acmeanalytics.com/pricing ${url}`,
    );
    const text = visibleText(reply);
    expect(text).toContain(`“${url}” is not on Acme Analytics' website, *acmeanalytics.com*`);
    expect(text).toContain('nothing was sent');
    expect(h.requestsTo('/crawler/submit-to-search')).toHaveLength(0);
    expect(await h.deps.auditLog.recent(1)).toEqual([]);
  });

  it('counts the other off-site URLs after the first', async () => {
    const { reply } = await h.command(
      'crawler "Acme Analytics" submit https://a.example/ https://b.example/ https://c.example/',
    );
    expect(visibleText(reply)).toContain('“https://a.example/” (and 2 more) is not on');
    expect(h.requestsTo('/crawler/submit-to-search')).toHaveLength(0);
  });

  it('accepts the bare domain, www and other subdomains, in any case, with a port', async () => {
    await h.command(
      'crawler "Acme Analytics" submit https://acmeanalytics.com/a https://WWW.AcmeAnalytics.com/b https://blog.acmeanalytics.com:8443/c',
    );
    expect(h.requestsTo('/crawler/submit-to-search').map((r) => r.body)).toEqual([
      {
        brand_id: acme.id,
        urls: 'https://acmeanalytics.com/a,https://WWW.AcmeAnalytics.com/b,https://blog.acmeanalytics.com:8443/c',
      },
    ]);
  });
});
