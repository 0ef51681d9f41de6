import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  CONTENT_SECURITY_POLICY,
  contentTypeOf,
  devServerOrigin,
  isAllowedExternalUrl,
  isAllowedRendererRequest,
  originOf,
  resolveAppFile,
} from '../../main/src/security/policy.ts';

const root = join(sep, 'opt', 'waste-tracker', 'renderer');

describe('app protocol: which files are served', () => {
  it.each([
    [APP_ENTRY_URL, join(root, 'index.html')],
    ['app://tracker/', join(root, 'index.html')],
    ['app://tracker/assets/index-4f2a.js?v=1#top', join(root, 'assets', 'index-4f2a.js')],
    ['app://tracker/assets/My%20Font.woff2', join(root, 'assets', 'My Font.woff2')],
  ])('%s → a file inside the renderer folder', (url, file) => {
    expect(resolveAppFile(url, root)).toBe(file);
  });

  it.each([
    ['another host', 'app://evil/index.html'],
    ['another scheme', 'file:///opt/waste-tracker/renderer/index.html'],
    ['an encoded slash', 'app://tracker/assets%2f..%2f..%2fsecret'],
    ['an encoded backslash', 'app://tracker/..%5c..%5csecret'],
    ['a NUL byte', 'app://tracker/index.html%00.png'],
    ['broken escapes', 'app://tracker/%E0%A4%A'],
    ['not a URL', 'tracker/index.html'],
  ])('refuses %s', (_name, url) => {
    expect(resolveAppFile(url, root)).toBeUndefined();
  });

  it.each([
    'app://tracker/../../etc/passwd',
    'app://tracker/%2e%2e/%2e%2e/etc/passwd',
    'app://tracker/assets/../../../etc/passwd',
  ])('keeps %s inside the renderer folder (dot segments stop at its root)', (url) => {
    expect(resolveAppFile(url, root)).toBe(join(root, 'etc', 'passwd'));
  });

  it('labels files by type and sends unknown ones as bytes', () => {
    expect(contentTypeOf('index.html')).toMatch(/^text\/html/);
    expect(contentTypeOf('a.JS')).toMatch(/^text\/javascript/);
    expect(contentTypeOf('archive.tar')).toBe('application/octet-stream');
  });
});

describe('content security policy', () => {
  it("starts from default-src 'none' and never allows inline or remote script", () => {
    const directives = CONTENT_SECURITY_POLICY.split(';').map((directive) => directive.trim());
    expect(directives[0]).toBe("default-src 'none'");
    expect(directives).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(directives.find((directive) => directive.startsWith('script-src'))).not.toContain('unsafe-inline');
  });

  it("lets the app start workers from its own files only (the offline engine's), never from blob: or data:", () => {
    const directives = CONTENT_SECURITY_POLICY.split(';').map((directive) => directive.trim());
    expect(directives).toContain("worker-src 'self'");
  });
});

describe('origins and requests', () => {
  it('computes origins for custom schemes too', () => {
    expect(originOf('app://tracker/index.html')).toBe('app://tracker');
    expect(originOf('http://localhost:5173/src/main.tsx')).toBe('http://localhost:5173');
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
  });

  it('uses the dev server only for an unpackaged app on plain http loopback', () => {
    expect(devServerOrigin('http://localhost:5173', false)).toBe('http://localhost:5173');
    expect(devServerOrigin('http://127.0.0.1:5173/', false)).toBe('http://127.0.0.1:5173');
    expect(devServerOrigin('http://localhost:5173', true)).toBeUndefined();
    expect(devServerOrigin('https://localhost:5173', false)).toBeUndefined();
    expect(devServerOrigin('http://evil.example:5173', false)).toBeUndefined();
    expect(devServerOrigin(undefined, false)).toBeUndefined();
  });

  it.each([
    ['app://tracker/assets/a.js', undefined, true],
    ['data:image/png;base64,AAAA', undefined, true],
    ['https://tiles.example.com/1/2/3.png', undefined, false],
    ['http://127.0.0.1:4010/api/tracker/generators/', undefined, false],
    ['http://localhost:5173/src/main.tsx', 'http://localhost:5173', true],
    ['ws://localhost:5173/', 'http://localhost:5173', true],
    ['http://localhost:5174/', 'http://localhost:5173', false],
    ['file:///etc/passwd', 'http://localhost:5173', false],
  ])('renderer request %s (dev server %s) allowed: %s', (url, dev, allowed) => {
    expect(isAllowedRendererRequest(url, dev)).toBe(allowed);
  });

  it.each([
    ['https://www.epa.gov/', true],
    ['http://www.epa.gov/', false],
    ['https://user:password@www.epa.gov/', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['smb://server/share', false],
    ['not a url', false],
  ])('external link %s allowed: %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url)).toBe(allowed);
  });
});
