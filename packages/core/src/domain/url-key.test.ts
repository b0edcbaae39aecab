import { describe, expect, it } from 'vitest';
import { simpleUrl, urlKey } from './url-key.ts';

describe('urlKey: generic rules', () => {
  it.each([
    // scheme: http ≡ https
    ['https://example.com/Docs', 'example.com/Docs'],
    ['http://example.com/Docs', 'example.com/Docs'],
    ['HTTPS://example.com/Docs', 'example.com/Docs'],
    // host lower-cased, leading www. dropped (once), trailing dot dropped
    ['https://EXAMPLE.com/Docs', 'example.com/Docs'],
    ['https://www.Example.com/Docs', 'example.com/Docs'],
    ['https://www.www.example.com/', 'www.example.com'],
    ['https://example.com./Docs', 'example.com/Docs'],
    ['https://wwwexample.com/', 'wwwexample.com'],
    // IDN to punycode: the Unicode and the ASCII spelling are one host
    ['https://例子.cn/a', 'xn--fsqu00a.cn/a'],
    ['https://xn--fsqu00a.cn/a', 'xn--fsqu00a.cn/a'],
    ['https://例子.中国/', 'xn--fsqu00a.xn--fiqs8s'],
    ['https://Bücher.de/', 'xn--bcher-kva.de'],
    // default ports dropped (80 and 443 both, the schemes being one); others kept
    ['https://example.com:443/a', 'example.com/a'],
    ['http://example.com:80/a', 'example.com/a'],
    ['http://example.com:443/a', 'example.com/a'],
    ['https://example.com:8443/a', 'example.com:8443/a'],
    // user info and fragment dropped
    ['https://user:secret@example.com/a', 'example.com/a'],
    ['https://example.com/a#section-2', 'example.com/a'],
    // tracking parameters dropped, the rest sorted by name (stable within a name)
    ['https://example.com/a?utm_source=x&utm_Medium=y&b=2&a=1', 'example.com/a?a=1&b=2'],
    ['https://example.com/a?ref=hn&ref_src=t&fbclid=1&gclid=2&spm=3', 'example.com/a'],
    ['https://example.com/a?UTM_CAMPAIGN=z&q=1', 'example.com/a?q=1'],
    ['https://example.com/a?x=2&x=1', 'example.com/a?x=2&x=1'],
    ['https://example.com/a?', 'example.com/a'],
    ['https://example.com/a?&&b&a=', 'example.com/a?a=&b'],
    ['https://example.com/a?referrer=1', 'example.com/a?referrer=1'],
    // percent-encoding: escaped unreserved characters decoded, other escapes upper-cased
    ['https://example.com/%7euser/%41bc', 'example.com/~user/Abc'],
    ['https://example.com/a%2fb', 'example.com/a%2Fb'],
    ['https://example.com/café', 'example.com/caf%C3%A9'],
    ['https://example.com/caf%c3%a9', 'example.com/caf%C3%A9'],
    ['https://example.com/a?q=%7e%2f', 'example.com/a?q=~%2F'],
    ['https://example.com/a b', 'example.com/a%20b'],
    // one trailing slash dropped; the root path is empty
    ['https://example.com/', 'example.com'],
    ['https://example.com', 'example.com'],
    ['https://example.com/docs/', 'example.com/docs'],
    ['https://example.com/docs//', 'example.com/docs/'],
    ['https://example.com/?a=1', 'example.com?a=1'],
    // dot segments resolved by the parser
    ['https://example.com/a/./b/../c', 'example.com/a/c'],
    // other hosts keep the case of their paths
    ['https://example.org/Models/Foo', 'example.org/Models/Foo'],
    ['https://example.org/models/foo', 'example.org/models/foo'],
    // an IP address host
    ['http://127.0.0.1:8080/x/', '127.0.0.1:8080/x'],
  ])('%s → %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });

  it('a string that is not an http(s) URL is its own key, apart from every URL key', () => {
    expect(urlKey('not a url')).toBe('@not a url');
    expect(urlKey('ftp://example.com/a')).toBe('@ftp://example.com/a');
    expect(urlKey('github.com/qwenlm/qwen')).toBe('@github.com/qwenlm/qwen');
    expect(urlKey('http://exa mple.com')).toBe('@http://exa mple.com');
  });
});

describe('urlKey: code hosts', () => {
  const qwen = 'github.com/qwenlm/qwen';
  it.each([
    'https://github.com/QwenLM/Qwen',
    'http://github.com/qwenlm/qwen.git',
    'https://www.github.com/QwenLM/Qwen/tree/main',
    'https://github.com/QwenLM/Qwen/',
    'https://GitHub.com/QwenLM/Qwen#readme',
    'https://github.com/QwenLM/Qwen?utm_source=x',
    'https://github.com:443/QwenLM/Qwen',
    'https://github.com/QwenLM/Qwen/blob/main/README.md',
    'https://github.com/QwenLM/Qwen/issues',
    'http://www.github.com/QWENLM/QWEN',
    'https://github.com/QwenLM/Qwen.git/',
    'https://github.com/%51wenLM/Qwen',
    'https://github.com/QwenLM/Qwen.GIT',
    'https://github.com//QwenLM/Qwen',
  ])('%s is the Qwen repository', (url) => {
    expect(urlKey(url)).toBe(qwen);
  });

  it.each([
    ['https://gitlab.com/Group/Project/-/tree/main', 'gitlab.com/group/project'],
    ['https://gitlab.com/group/project.git', 'gitlab.com/group/project'],
    // GitLab nests groups: two projects of one subgroup stay apart
    ['https://gitlab.com/Group/Sub/Project-A/-/issues/3', 'gitlab.com/group/sub/project-a'],
    ['https://gitlab.com/group/sub/project-b', 'gitlab.com/group/sub/project-b'],
    ['https://gitlab.com/group/project/tree/main', 'gitlab.com/group/project'],
    ['https://gitee.com/MindSpore/MindSpore/blob/master/README.md', 'gitee.com/mindspore/mindspore'],
    ['https://codeberg.org/Forgejo/Forgejo/issues', 'codeberg.org/forgejo/forgejo'],
    [
      'https://bitbucket.org/Atlassian/Python-Bitbucket/src/master/',
      'bitbucket.org/atlassian/python-bitbucket',
    ],
  ])('%s → %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });

  it.each([
    // the host's own pages are not repositories: generic keys, paths keep their case
    ['https://github.com/features', 'github.com/features'],
    ['https://github.com/features/Copilot', 'github.com/features/Copilot'],
    ['https://github.com/orgs/QwenLM', 'github.com/orgs/QwenLM'],
    ['https://github.com/orgs/x/repositories', 'github.com/orgs/x/repositories'],
    ['https://github.com/topics/LLM', 'github.com/topics/LLM'],
    // an owner alone is not a repository
    ['https://github.com/QwenLM', 'github.com/QwenLM'],
    ['https://github.com/', 'github.com'],
    ['https://gitlab.com/explore/Projects', 'gitlab.com/explore/Projects'],
    // another port: not the code host's web pages as known
    ['https://github.com:8443/QwenLM/Qwen', 'github.com:8443/QwenLM/Qwen'],
    // a look-alike host keeps the generic rules
    ['https://github.company.com/QwenLM/Qwen', 'github.company.com/QwenLM/Qwen'],
    ['https://gist.github.com/User/ABC123', 'gist.github.com/User/ABC123'],
  ])('%s → %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });
});

describe('urlKey: model hubs', () => {
  it.each([
    ['https://huggingface.co/Qwen/Qwen-7B', 'huggingface.co/qwen/qwen-7b'],
    ['https://hf.co/Qwen/Qwen-7B', 'huggingface.co/qwen/qwen-7b'],
    ['https://www.huggingface.co/Qwen/Qwen-7B/tree/main', 'huggingface.co/qwen/qwen-7b'],
    ['https://huggingface.co/Qwen/Qwen-7B/blob/main/config.json', 'huggingface.co/qwen/qwen-7b'],
    ['https://huggingface.co/Qwen/Qwen-7B/resolve/main/model.safetensors', 'huggingface.co/qwen/qwen-7b'],
    ['https://huggingface.co/datasets/OpenAssistant/OASST1', 'huggingface.co/datasets/openassistant/oasst1'],
    ['https://hf.co/datasets/OpenAssistant/OASST1/tree/main', 'huggingface.co/datasets/openassistant/oasst1'],
    ['https://huggingface.co/spaces/Qwen/Qwen-Chat/', 'huggingface.co/spaces/qwen/qwen-chat'],
    // a model and a dataset of one name are two things
    ['https://huggingface.co/OpenAssistant/OASST1', 'huggingface.co/openassistant/oasst1'],
    // the hub's own pages and single segments keep the generic rules
    ['https://huggingface.co/papers/2309.16609', 'huggingface.co/papers/2309.16609'],
    ['https://huggingface.co/docs/Transformers', 'huggingface.co/docs/Transformers'],
    ['https://huggingface.co/Qwen', 'huggingface.co/Qwen'],
    ['https://hf.co/gpt2', 'hf.co/gpt2'],
    ['https://huggingface.co/datasets', 'huggingface.co/datasets'],
    ['https://modelscope.cn/models/Qwen/Qwen-7B/summary', 'modelscope.cn/models/qwen/qwen-7b'],
    ['https://www.modelscope.cn/models/Qwen/Qwen-7B', 'modelscope.cn/models/qwen/qwen-7b'],
    ['https://modelscope.cn/models/Qwen/Qwen-7B/files?revision=master', 'modelscope.cn/models/qwen/qwen-7b'],
    ['https://modelscope.cn/datasets/Foo/Bar', 'modelscope.cn/datasets/Foo/Bar'],
  ])('%s → %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });
});

describe('urlKey: papers', () => {
  it.each([
    ['https://arxiv.org/abs/2309.16609', 'arxiv:2309.16609'],
    ['https://arxiv.org/abs/2309.16609v2', 'arxiv:2309.16609'],
    ['https://arxiv.org/pdf/2309.16609v2', 'arxiv:2309.16609'],
    ['https://arxiv.org/pdf/2309.16609.pdf', 'arxiv:2309.16609'],
    ['https://arxiv.org/pdf/2309.16609v3.pdf', 'arxiv:2309.16609'],
    ['http://export.arxiv.org/abs/2309.16609', 'arxiv:2309.16609'],
    ['https://www.arxiv.org/abs/2309.16609?context=cs#x', 'arxiv:2309.16609'],
    ['https://arxiv.org/abs/1706.0376', 'arxiv:1706.0376'],
    // old-style ids keep their archive's case
    ['https://arxiv.org/abs/hep-th/9901001v1', 'arxiv:hep-th/9901001'],
    ['https://arxiv.org/pdf/math.GT/0309136', 'arxiv:math.GT/0309136'],
    // not a paper: generic
    ['https://arxiv.org/list/cs.CL/recent', 'arxiv.org/list/cs.CL/recent'],
    ['https://arxiv.org/abs/', 'arxiv.org/abs'],
    ['https://doi.org/10.48550/arXiv.2309.16609', 'doi:10.48550/arxiv.2309.16609'],
    ['https://dx.doi.org/10.48550/ARXIV.2309.16609', 'doi:10.48550/arxiv.2309.16609'],
    ['http://www.doi.org/10.1000%2F182', 'doi:10.1000/182'],
    ['https://doi.org/10.1000/182/', 'doi:10.1000/182'],
    ['https://doi.org/about', 'doi.org/about'],
  ])('%s → %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });
});

describe('urlKey: what stays apart', () => {
  it.each([
    // a case-sensitive host: paths differing by case are two pages
    ['https://example.org/Qwen', 'https://example.org/qwen'],
    // another repository of the same owner
    ['https://github.com/QwenLM/Qwen', 'https://github.com/QwenLM/Qwen2'],
    // a path and its escaped slash
    ['https://example.com/a/b', 'https://example.com/a%2Fb'],
    // a port other than the default
    ['https://example.com/a', 'https://example.com:8080/a'],
    // the order of one parameter's values
    ['https://example.com/?a=1&a=2', 'https://example.com/?a=2&a=1'],
    // a model and the dataset of one name
    ['https://huggingface.co/x/y', 'https://huggingface.co/datasets/x/y'],
    // two arXiv papers
    ['https://arxiv.org/abs/2309.16609', 'https://arxiv.org/abs/2309.16610'],
  ])('%s ≠ %s', (a, b) => {
    expect(urlKey(a)).not.toBe(urlKey(b));
  });

  it('is idempotent on the URL it keys: the same spelling always gives the same key', () => {
    for (const url of ['https://github.com/QwenLM/Qwen', 'https://例子.cn/路径?b=1&a=2', 'not a url']) {
      expect(urlKey(url)).toBe(urlKey(url));
    }
  });
});

describe('simpleUrl: the parser-free path', () => {
  const cases = [
    'https://github.com/QwenLM/Qwen',
    'http://github.com/qwenlm/qwen.git',
    'https://example.com',
    'https://example.com/',
    'https://example.com/a//b/',
    'https://example.com/a/./b',
    'https://example.com/a/..',
    'https://example.com/.well-known/x',
    'https://example.com/a/...b',
    'https://127.0.0.1/x',
    'https://127.1/x',
    'https://0x7f.1/x',
    'https://example.123/x',
    'https://xn--zz.com/x',
    'https://xn--fsqu00a.cn/a',
    'https://a--b.example.org/x',
    'https://-lead.example.org/x',
    'https://example.com./x',
    'https://Example.com/x',
    'https://example.com:8080/x',
    'https://example.com/a%2Fb',
    'https://example.com/a?b',
    'https://example.com/a#b',
    'https://example.com/a~b_c-d.e',
  ];
  it.each(cases)('%s: either declined or exactly what WHATWG URL gives', (url) => {
    const simple = simpleUrl(url);
    if (simple === undefined) return;
    const parsed = new URL(url);
    expect(simple).toEqual({
      hostname: parsed.hostname,
      port: parsed.port,
      pathname: parsed.pathname,
      search: parsed.search,
    });
  });

  it('takes the common shapes (they are why it exists)', () => {
    for (const url of [
      'https://github.com/QwenLM/Qwen',
      'https://example.com',
      'https://a.b.org/x/y-z_1.html',
    ]) {
      expect(simpleUrl(url), url).toBeDefined();
    }
  });

  it('declines what the parser would change', () => {
    for (const url of [
      'https://127.1/x',
      'https://0x7f.1/x',
      'https://xn--zz.com/x',
      'https://example.com/a/./b',
    ]) {
      expect(simpleUrl(url), url).toBeUndefined();
    }
  });
});
