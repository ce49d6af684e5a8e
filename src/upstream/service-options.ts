/**
 * Up-front checks of a service's constructor options, with errors that name the service and the
 * option (and never print a value that might be a secret).
 */

export function numberOption(service: string, name: string, value: number | undefined, fallback: number, allowZero = false): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result < 0 || (!allowZero && result === 0)) {
    throw new TypeError(`${service}: option "${name}" must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${result}`);
  }
  return result;
}

export function baseUrlOption(service: string, value: string, option = 'baseUrl'): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new TypeError(`${service}: option "${option}" must be an http(s) URL without credentials`);
  }
  return value;
}
