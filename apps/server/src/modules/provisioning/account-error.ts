/** A refusal of the operator's input, with a message that says what is expected. */
export class AccountError extends Error {}
