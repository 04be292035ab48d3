/** A refusal retrying cannot fix (SMTP 5xx, unreachable number, the messaging service's 4xx): the delivery fails. */
export class PermanentDeliveryError extends Error {}
