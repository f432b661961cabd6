import { describe, expect, it } from 'vitest';
import { brandDomain, isOnDomain } from '../../../src/slack/features/crawler/crawler-submit.js';

describe('brandDomain', () => {
  it('reads the host of the website, without www, with or without a scheme', () => {
    expect(brandDomain('https://www.acmeanalytics.com')).toBe('acmeanalytics.com');
    expect(brandDomain('https://shop.acme.com/en/')).toBe('shop.acme.com');
    expect(brandDomain('Acme.COM')).toBe('acme.com');
    expect(brandDomain('http://bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('has none for a missing or unreadable website', () => {
    expect(brandDomain(null)).toBeUndefined();
    expect(brandDomain('  ')).toBeUndefined();
    expect(brandDomain('https://')).toBeUndefined();
  });
});

describe('isOnDomain', () => {
  it('compares parsed hostnames: the domain and its subdomains only', () => {
    expect(isOnDomain('https://acme.com/x', 'acme.com')).toBe(true);
    expect(isOnDomain('https://a.b.acme.com./x', 'acme.com')).toBe(true);
    expect(isOnDomain('https://user:pw@acme.com:8080/x', 'acme.com')).toBe(true);
    expect(isOnDomain('https://bücher.example/', brandDomain('bücher.example')!)).toBe(true);
    expect(isOnDomain('https://acme.com.evil.example/', 'acme.com')).toBe(false);
    expect(isOnDomain('https://evilacme.com/', 'acme.com')).toBe(false);
    expect(isOnDomain('https://acme.com@evil.example/', 'acme.com')).toBe(false);
    expect(isOnDomain('https://evil.example/acme.com', 'acme.com')).toBe(false);
  });
});
