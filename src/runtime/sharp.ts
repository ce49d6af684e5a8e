import type sharpModule from 'sharp';

type Sharp = typeof sharpModule;

let loading: Promise<Sharp> | undefined;

/**
 * sharp, loaded the first time a picture is drawn in this process. Loading it maps libvips and its
 * libraries: about 20 MB of RSS that a process which never draws a map or reads an artwork's colours
 * should not carry (deck pictures are drawn in their own child, src/services/deck-pictures). Its
 * operation cache is off: each call here works on a new input (a map with other dots, another
 * artwork), so the cache would only hold up to 50 MB of native memory for nothing.
 */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
