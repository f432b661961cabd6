/**
 * Why a server could not be talked to, in words an operator can act on: its name does not
 * resolve (DNS), nothing answers there (unreachable), or the TLS handshake failed. Node and
 * undici say so with an error code somewhere down the error's chain: fetch wraps it in a
 * TypeError's `cause`, the Slack SDK in a RequestError's `original`, our API client in
 * the ApiError's `cause`.
 */

type NetworkFailureKind = 'dns' | 'unreachable' | 'tls';

interface NetworkFailure {
  kind: NetworkFailureKind;
  /** The code found (ENOTFOUND, ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, …). */
  code: string;
  /** What happened, in words: "nothing accepts connections there (connection refused)". */
  words: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there (connection refused)',
  ETIMEDOUT: 'it did not answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'it did not answer in time',
  UND_ERR_HEADERS_TIMEOUT: 'it took the connection but did not answer in time',
  EHOSTUNREACH: 'there is no network route to it',
  ENETUNREACH: 'there is no network route to it',
  ECONNRESET: 'it cut the connection',
  EPIPE: 'it cut the connection',
  UND_ERR_SOCKET: 'it closed the connection',
};

/** Trusting a certificate of one's own: Node reads extra authorities from this variable. */
const OWN_AUTHORITY = 'if it is one of your own, point NODE_EXTRA_CA_CERTS at the authority that signed it';

const TLS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `its certificate is self-signed, so it is not trusted (${OWN_AUTHORITY})`,
  SELF_SIGNED_CERT_IN_CHAIN: `its certificate chain ends in a self-signed authority that is not trusted (${OWN_AUTHORITY})`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `its certificate is signed by an authority that is not trusted (${OWN_AUTHORITY})`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `its certificate is signed by an authority that is not trusted (${OWN_AUTHORITY})`,
  UNABLE_TO_GET_ISSUER_CERT: `its certificate is signed by an authority that is not trusted (${OWN_AUTHORITY})`,
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: "its certificate is not valid yet (or this machine's clock is wrong)",
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak TLS there (an http:// address given as https://?)',
  EPROTO: 'it does not speak TLS there (an http:// address given as https://?)',
};

/** The error and its causes, outermost first (cycles and deep chains cut off). */
function chainOf(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = err;
  while (typeof current === 'object' && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    const next = current as { cause?: unknown; original?: unknown };
    current = next.cause ?? next.original;
  }
  return chain;
}

function classify(code: string): NetworkFailure | undefined {
  if (DNS_CODES.has(code)) return { kind: 'dns', code, words: 'its name does not resolve in DNS' };
  const unreachable = UNREACHABLE[code];
  if (unreachable) return { kind: 'unreachable', code, words: unreachable };
  const tls = TLS[code] ?? (/CERT|SSL|TLS/.test(code) ? `the TLS handshake failed (${code})` : undefined);
  return tls ? { kind: 'tls', code, words: tls } : undefined;
}

/** The network failure behind `err`, or undefined when it is something else. */
export function networkFailure(err: unknown): NetworkFailure | undefined {
  for (const link of chainOf(err)) {
    const code = (link as { code?: unknown }).code;
    const found = typeof code === 'string' ? classify(code) : undefined;
    if (found) return found;
  }
  return undefined;
}
