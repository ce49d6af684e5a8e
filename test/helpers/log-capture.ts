import { Writable } from 'node:stream';

/** A stream that keeps every log line, for tests that read all log output. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.lines.push(...chunk.toString().split('\n').filter((line) => line !== ''));
    callback();
  }

  get text(): string {
    return this.lines.join('\n');
  }

  entries(): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}
