import { describe, expect, it } from 'vitest';
import { baseUrlOption, numberOption } from '../../src/upstream/service-options.js';

describe('numberOption', () => {
  it('takes the value, else the fallback, and refuses what is not a positive number (zero only when allowed), naming service and option', () => {
    expect(numberOption('GeoJS', 'timeoutMs', 5, 10)).toBe(5);
    expect(numberOption('GeoJS', 'timeoutMs', undefined, 10)).toBe(10);
    expect(numberOption('GeoJS', 'retries', 0, 1, true)).toBe(0);
    expect(() => numberOption('GeoJS', 'timeoutMs', 0, 10)).toThrow('GeoJS: option "timeoutMs" must be a positive number, got 0');
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => numberOption('GeoJS', 'timeoutMs', bad, 10, true), String(bad)).toThrow(TypeError);
  });
});

describe('baseUrlOption', () => {
  it('accepts an http(s) URL and refuses anything else without printing it', () => {
    expect(baseUrlOption('Wallhaven', 'https://wallhaven.cc')).toBe('https://wallhaven.cc');
    expect(baseUrlOption('Wallhaven', 'http://127.0.0.1:8080/base')).toBe('http://127.0.0.1:8080/base');
    for (const bad of ['ftp://wallhaven.cc', 'wallhaven.cc', 'https://user:secret-token@wallhaven.cc']) {
      expect(() => baseUrlOption('Wallhaven', bad, 'apiUrl'), bad).toThrow('Wallhaven: option "apiUrl" must be an http(s) URL without credentials');
      expect(() => baseUrlOption('Wallhaven', bad)).not.toThrow(/secret-token/);
    }
  });
});
