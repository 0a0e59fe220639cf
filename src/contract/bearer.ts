/** RFC 6750 §2.1 b64token; `fixtures/fixtures.schema.json`'s `apiKeys` pattern is held equal to it. */
export const BEARER_TOKEN_PATTERN = '^[A-Za-z0-9._~+/-]+=*$';

const BEARER = /^(bearer) +(\S.*)$/i;

/** The one reading of `Authorization: Bearer <token>` (§5), the scheme in any case (D7); not held to b64token. */
export function bearerToken(authorization: string | undefined): { scheme: string; token: string } | null {
  const match = BEARER.exec(authorization ?? '');
  return match?.[1] && match[2] ? { scheme: match[1], token: match[2] } : null;
}
