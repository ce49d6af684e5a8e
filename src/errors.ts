/**
 * An error whose message is written for the person who ran the command: a short plain sentence.
 * Anything else that escapes a handler is logged in full and the user gets a generic sentence.
 */
export class UserError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UserError';
  }
}
