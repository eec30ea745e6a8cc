/**
 * The download allow-list. A link is parsed, never substring-matched: http or https, no user
 * name or password, a plain ASCII host that is exactly one of the platform's hosts (or a host
 * the operator added with DOWNLOAD_EXTRA_HOSTS), and, for the platform, a path that names one
 * video. Platform links are rebuilt in canonical form, so yt-dlp never sees the user's text.
 *
 * The raw text is checked before WHATWG parsing because URL parsers disagree on backslashes,
 * percent-encoded and Unicode hosts, and numeric IPv4 forms (`https://youtube.com\@evil.com`
 * is youtube.com to Node but evil.com to Python's urllib, which yt-dlp uses).
 */
export const PLATFORM_HOSTS: readonly string[] = ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com'];
export const SHORT_LINK_HOST = 'youtu.be';

export type CheckedUrl =
  | {
      ok: true;
      /** the URL to give yt-dlp (after `--`) */
      url: string;
      host: string;
      /** true for the platform's own hosts; false for DOWNLOAD_EXTRA_HOSTS */
      platform: boolean;
      /** the platform's 11-character video id, known before anything runs */
      videoId?: string;
    }
  | { ok: false; reason: string };

export const URL_HINT =
  'Paste the link of one video from youtube.com or youtu.be, for example https://www.youtube.com/watch?v=dQw4w9WgXcQ.';

const MAX_URL_LENGTH = 2048;
const PLATFORM_ID_RE = /^[A-Za-z0-9_-]{11}$/;
const SHAPE_RE = /^(https?):\/\/([^/?#]*)([/?#][\s\S]*)?$/i;
const AUTHORITY_RE = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
const HOST_LABELS_RE = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export function checkDownloadUrl(input: unknown, extraHosts: readonly string[] = []): CheckedUrl {
  if (typeof input !== 'string') return fail('No link was given.');
  const text = input.trim();
  if (text === '') return fail('No link was given.');
  if (text.length > MAX_URL_LENGTH) return fail(`The link is longer than ${MAX_URL_LENGTH} characters.`);
  // printable ASCII only: no spaces, control characters, look-alike Unicode letters or full-width dots
  if (!/^[\x21-\x7e]+$/.test(text)) return fail('The link contains spaces, control characters or non-ASCII letters.');
  if (text.includes('\\')) return fail('The link contains a backslash.');

  const shape = SHAPE_RE.exec(text);
  if (!shape) return fail('The link must start with http:// or https:// followed by a host name.');
  const scheme = shape[1]!.toLowerCase();
  const authority = shape[2]!;
  if (authority.includes('@')) return fail('The link must not contain a user name or password.');
  const auth = AUTHORITY_RE.exec(authority);
  if (!auth) return fail('The host name of the link is not a plain host name.');
  const host = auth[1]!.toLowerCase();
  const port = auth[2];
  if (!host.startsWith('[') && !isIpv4(host) && !HOST_LABELS_RE.test(host)) return fail('The host name of the link is not valid.');

  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return fail('The link could not be read.');
  }
  // both parsers must agree on the host, or the link is ambiguous
  if (parsed.hostname !== host || parsed.username !== '' || parsed.password !== '') {
    return fail('The host name of the link is ambiguous.');
  }

  if (host === SHORT_LINK_HOST || PLATFORM_HOSTS.includes(host)) {
    if (port !== undefined) return fail('Video platform links must not name a port.');
    const videoId = platformVideoId(host, parsed);
    if (!videoId) return fail('The link does not point to a single video (playlists, channels and searches are not supported).');
    return { ok: true, url: `https://www.youtube.com/watch?v=${videoId}`, host, platform: true, videoId };
  }

  const allowed = extraHosts.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e === '') return false;
    const m = AUTHORITY_RE.exec(e);
    if (!m) return false;
    return m[1] === host && (m[2] === undefined || m[2] === (port ?? defaultPort(scheme)));
  });
  if (!allowed) return fail(`${host} is not an allowed video host.`);
  parsed.hash = '';
  return { ok: true, url: parsed.href, host, platform: false };
}

/** The 11-character id in a platform link, or undefined when the path does not name one video. */
function platformVideoId(host: string, url: URL): string | undefined {
  const parts = url.pathname.split('/').filter(Boolean);
  let candidate: string | undefined;
  if (host === SHORT_LINK_HOST) {
    if (parts.length === 1) candidate = parts[0];
  } else if (parts.length === 1 && parts[0] === 'watch') {
    const ids = url.searchParams.getAll('v');
    if (ids.length === 1) candidate = ids[0];
  } else if (parts.length === 2 && ['shorts', 'live', 'embed', 'v'].includes(parts[0]!)) {
    candidate = parts[1];
  }
  return candidate !== undefined && PLATFORM_ID_RE.test(candidate) ? candidate : undefined;
}

function isIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

function defaultPort(scheme: string): string {
  return scheme === 'https' ? '443' : '80';
}

function fail(reason: string): CheckedUrl {
  return { ok: false, reason };
}
