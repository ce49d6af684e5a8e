/**
 * A failure an operator can fix, whose message already says what happened and what to change (a busy
 * port, a refused token). Entry points print the message as one line; the cause goes to the debug log.
 */
export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StartupError';
  }
}
