import { describe, expect, it } from 'vitest';
import { parseWallpaperId } from '../../src/wallpaper/wallhaven-site.js';

describe('parseWallpaperId', () => {
  it.each([
    ['6dk8yq', '6dk8yq'],
    ['  6dk8yq ', '6dk8yq'],
    ['https://wallhaven.cc/w/6dk8yq', '6dk8yq'],
    ['wallhaven.cc/w/6dk8yq', '6dk8yq'],
    ['http://wallhaven.cc/w/6dk8yq/', '6dk8yq'],
    ['https://www.wallhaven.cc/w/6dk8yq?utm=x#top', '6dk8yq'],
    ['https://whvn.cc/6dk8yq', '6dk8yq'],
    ['http://whvn.cc/6dk8yq/', '6dk8yq'],
    ['whvn.cc/6dk8yq', '6dk8yq'],
    ['9ab3kd7x', '9ab3kd7x'],
  ])('accepts %j', (input, id) => {
    expect(parseWallpaperId(input)).toEqual({ ok: true, id });
  });

  it.each([
    '',
    '6DK8YQ',
    'abc',
    '6dk8yq1234',
    '../settings',
    '%2e%2e',
    '6dk8y%71',
    'https://evil.example/w/6dk8yq',
    'https://wallhaven.cc.evil.example/w/6dk8yq',
    'https://wallhaven.cc/w/6dk8yq/similar',
    'https://wallhaven.cc/search?q=x',
    'wallhaven.cc/w/../settings',
    'https://wallhaven.cc/w/%2e%2e',
    'ftp://wallhaven.cc/w/6dk8yq',
    'https://user:pw@wallhaven.cc/w/6dk8yq',
    'https://wallhaven.cc:8443/w/6dk8yq',
    'https://w.wallhaven.cc/full/6d/wallhaven-6dk8yq.jpg',
    'javascript:alert(1)',
  ])('refuses %j with a plain reason', (input) => {
    const parsed = parseWallpaperId(input);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(/^[a-z]/);
  });
});
