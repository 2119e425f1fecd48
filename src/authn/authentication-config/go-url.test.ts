import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoUrl } from './go-url.js';

describe('parseGoUrl', () => {
  const cases: [string, ReturnType<typeof parseGoUrl>][] = [
    ['https://idp.example/path', { scheme: 'https', hasUser: false, rawQuery: '', fragment: '' }],
    ['HTTPS://u@idp.example?x=1#f', { scheme: 'https', hasUser: true, rawQuery: 'x=1', fragment: 'f' }],
    ['idp.example', { scheme: '', hasUser: false, rawQuery: '', fragment: '' }],
    ['https://idp.example/a@b', { scheme: 'https', hasUser: false, rawQuery: '', fragment: '' }],
    ['://x', { error: 'parse "://x": missing protocol scheme' }],
    ['https://a\nb', { error: 'parse "https://a\\nb": net/url: invalid control character in URL' }],
  ];
  for (const [raw, expected] of cases) it(JSON.stringify(raw), () => assert.deepEqual(parseGoUrl(raw), expected));
});
