/**
 * The URL key (docs/curation.md#same-project-other-spelling): one pure function from a URL to the text
 * that identifies what it points at, so that `https://github.com/QwenLM/Qwen`,
 * `http://www.github.com/qwenlm/qwen.git` and `https://github.com/QwenLM/Qwen/tree/main` are one
 * repository. Every comparison of URLs in the service (identity, duplicate checks, task skips, by-url,
 * duplicates) compares keys; the URL itself is stored and shown exactly as sent. Parsing is WHATWG `URL`
 * (Node's own: it does IDN to punycode, dot segments and host case); the rules below are the project's.
 *
 * Generic: scheme dropped (http ≡ https), host lower-cased and punycoded with a leading `www.`
 * and a trailing `.` dropped, ports 80 and 443 dropped (either is the default of one of the two
 * schemes, which are one), user info and fragment dropped, tracking parameters dropped and the
 * rest sorted, percent-encoding normalised, one trailing `/` of the path dropped. Then per host:
 * code hosts, Hugging Face, ModelScope, arXiv and DOI have their own shapes (see HOST_RULES).
 * Other paths keep their case.
 */
export function urlKey(url: string): string {
  let key = known.get(url);
  if (key === undefined) {
    if (known.size >= KNOWN_MAX) known.clear();
    key = computeKey(url);
    known.set(url, key);
  }
  return key;
}

// The keys of recently seen urls: crawlers check and submit the same urls again and again, and a
// duplicate check keys up to 300 of them per request. Cleared when full (a pure function's cache
// needs no smarter eviction to stay correct).
const KNOWN_MAX = 50_000;
const known = new Map<string, string>();

function computeKey(url: string): string {
  const parsed = simpleUrl(url) ?? parseHttpUrl(url);
  // Not an http(s) URL WHATWG can parse: only the very same string matches it. `@` cannot
  // begin a key of a parsed URL (it is a forbidden host code point), so none collides with it.
  if (!parsed) return `@${url}`;
  const host = normaliseHost(parsed.hostname);
  const port = parsed.port === '' || parsed.port === '80' || parsed.port === '443' ? '' : `:${parsed.port}`;
  const path = normalisePercent(parsed.pathname);
  const special = port === '' ? HOST_RULES[host]?.(segmentsOf(path)) : undefined;
  if (special !== undefined) return special;
  const query = normaliseQuery(parsed.search);
  return `${host}${port}${path.endsWith('/') ? path.slice(0, -1) : path}${query ? `?${query}` : ''}`;
}

type UrlParts = Pick<URL, 'hostname' | 'port' | 'pathname' | 'search'>;

/**
 * The common case without a parser: a lower-case ASCII host whose last label starts with a
 * letter and without punycode (so WHATWG's IPv4 and IDN handling do nothing to it), no port, user info, query or
 * fragment, and a path of unreserved characters without `.`/`..` segments or escapes. WHATWG
 * would give back exactly these parts; anything else goes to the parser. It is here for speed
 * only (endpoints 9 and 10 key up to 300 urls per request): url-key.test.ts checks it agrees
 * with the parser on every URL of its table.
 */
const SIMPLE_URL = /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(\/[A-Za-z0-9\-_~/.]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

export function simpleUrl(url: string): UrlParts | undefined {
  const m = SIMPLE_URL.exec(url);
  if (!m || m[1]!.includes('xn--') || (m[2] !== undefined && DOT_SEGMENT.test(m[2]))) return undefined;
  return { hostname: m[1]!, port: '', pathname: m[2] ?? '/', search: '' };
}

function parseHttpUrl(url: string): UrlParts | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function normaliseHost(hostname: string): string {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Ad and referral trackers: the same page with or without them. */
const TRACKING = new Set(['ref', 'ref_src', 'fbclid', 'gclid', 'spm']);
const isTracking = (name: string) => {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING.has(lower);
};

function normaliseQuery(search: string): string {
  const params = search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const at = p.indexOf('=');
      const name = normalisePercent(at < 0 ? p : p.slice(0, at));
      return { name, text: at < 0 ? name : `${name}=${normalisePercent(p.slice(at + 1))}` };
    })
    .filter((p) => !isTracking(p.name));
  // Stable: parameters of one name keep their order (a=2&a=1 is not a=1&a=2).
  params.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return params.map((p) => p.text).join('&');
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * RFC 3986 6.2.2: an escaped unreserved character is the character (`%7E` is `~`), other
 * escapes are upper-case (`%2f` is `%2F`). Reserved characters stay escaped or not as sent:
 * `/` and `%2F` differ in a path.
 */
function normalisePercent(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

type HostRule = (segments: string[]) => string | undefined;

/** The first path segments of a code host that are its own pages, never an owner. */
const CODE_HOST_PAGES: Record<string, string[]> = {
  'github.com': [
    'about',
    'account',
    'apps',
    'collections',
    'contact',
    'customer-stories',
    'codespaces',
    'dashboard',
    'enterprise',
    'events',
    'explore',
    'features',
    'issues',
    'join',
    'login',
    'logout',
    'marketplace',
    'new',
    'notifications',
    'organizations',
    'orgs',
    'pricing',
    'pulls',
    'readme',
    'search',
    'security',
    'sessions',
    'settings',
    'signup',
    'site',
    'solutions',
    'sponsors',
    'stars',
    'team',
    'topics',
    'trending',
    'users',
    'watching',
  ],
  'gitlab.com': ['-', 'admin', 'dashboard', 'explore', 'groups', 'help', 'projects', 'search', 'users'],
  'gitee.com': ['about', 'enterprises', 'explore', 'help', 'login', 'organizations', 'search', 'signup'],
  'codeberg.org': ['admin', 'assets', 'explore', 'org', 'repo', 'user'],
  'bitbucket.org': ['account', 'dashboard', 'product', 'repo', 'site', 'socialauth'],
};

const stripGit = (repo: string) => (repo.toLowerCase().endsWith('.git') ? repo.slice(0, -4) : repo);

/** `host/owner/repo` lower-cased; `.git` and anything after the repository dropped. */
function codeHost(host: string): HostRule {
  const pages = new Set(CODE_HOST_PAGES[host]);
  return (segments) => {
    const [owner, repo] = segments;
    if (owner === undefined || repo === undefined || pages.has(owner.toLowerCase())) return undefined;
    const name = stripGit(repo);
    return name === '' ? undefined : `${host}/${owner}/${name}`.toLowerCase();
  };
}

/** GitLab's sub-pages of a project, after which the path is no longer the project's. */
const GITLAB_PAGES = new Set([
  '-',
  'activity',
  'blame',
  'blob',
  'branches',
  'commit',
  'commits',
  'compare',
  'graphs',
  'issues',
  'jobs',
  'merge_requests',
  'pipelines',
  'raw',
  'releases',
  'tags',
  'tree',
  'wikis',
]);

/**
 * GitLab nests groups (`gitlab.com/group/subgroup/project`), so the project is every segment up
 * to the `/-/` separator (or an old-style sub-page): two projects of one subgroup stay apart.
 */
function gitLab(segments: string[]): string | undefined {
  const base = codeHost('gitlab.com')(segments);
  if (base === undefined) return undefined;
  let end = 2;
  while (end < segments.length && !GITLAB_PAGES.has(segments[end]!.toLowerCase())) end++;
  const path = [...segments.slice(0, end - 1), stripGit(segments[end - 1]!)];
  return `gitlab.com/${path.join('/')}`.toLowerCase();
}

/** Hugging Face's own pages: never an owner. */
const HUB_PAGES = new Set([
  'api',
  'blog',
  'changelog',
  'chat',
  'collections',
  'docs',
  'enterprise',
  'hardware',
  'join',
  'learn',
  'login',
  'models',
  'new',
  'organizations',
  'papers',
  'posts',
  'pricing',
  'search',
  'settings',
  'tasks',
]);

/** `huggingface.co/[datasets/|spaces/]owner/name` lower-cased; `/tree/…`, `/blob/…`, `/resolve/…` dropped. */
const huggingFace: HostRule = (segments) => {
  const [first] = segments;
  if (first === undefined) return undefined;
  const kind = first.toLowerCase();
  if (kind === 'datasets' || kind === 'spaces') {
    const [, owner, name] = segments;
    return owner && name ? `huggingface.co/${kind}/${owner}/${name}`.toLowerCase() : undefined;
  }
  const [owner, name] = segments;
  if (HUB_PAGES.has(kind) || owner === undefined || name === undefined) return undefined;
  return `huggingface.co/${owner}/${name}`.toLowerCase();
};

/** `modelscope.cn/models/owner/name` lower-cased, anything after the name dropped. */
const modelScope: HostRule = (segments) => {
  const [first, owner, name] = segments;
  if (first?.toLowerCase() !== 'models' || owner === undefined || name === undefined) return undefined;
  return `modelscope.cn/models/${owner}/${name}`.toLowerCase();
};

// New-style ids (2309.16609) and old-style ones (hep-th/9901001, math.GT/0309136).
const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Za-z-]+)?\/\d{7})$/;

/** `/abs/ID`, `/pdf/ID`, `/pdf/ID.pdf`, with or without a version: `arxiv:ID`. */
const arXiv: HostRule = (segments) => {
  const [kind, ...rest] = segments;
  if (kind !== 'abs' && kind !== 'pdf') return undefined;
  const id = rest
    .join('/')
    .replace(/\.pdf$/i, '')
    .replace(/v\d+$/, '');
  return ARXIV_ID.test(id) ? `arxiv:${id}` : undefined;
};

/** `doi:` and the DOI (percent-decoded) lower-cased: DOIs are case-insensitive. */
const doi: HostRule = (segments) => {
  let name: string;
  try {
    name = decodeURIComponent(segments.join('/'));
  } catch {
    return undefined;
  }
  return name.startsWith('10.') ? `doi:${name.toLowerCase()}` : undefined;
};

const HOST_RULES: Record<string, HostRule> = {
  'github.com': codeHost('github.com'),
  'gitlab.com': gitLab,
  'gitee.com': codeHost('gitee.com'),
  'codeberg.org': codeHost('codeberg.org'),
  'bitbucket.org': codeHost('bitbucket.org'),
  'huggingface.co': huggingFace,
  'hf.co': huggingFace,
  'modelscope.cn': modelScope,
  'arxiv.org': arXiv,
  'export.arxiv.org': arXiv,
  'doi.org': doi,
  'dx.doi.org': doi,
};
