/** Delivers a text message to a person's verified phone over a messaging app (the CIBA approval link). */
export abstract class PhoneMessenger {
  /** Resolves when the provider accepted the message; rejects with MessageNotDelivered otherwise. */
  abstract send(phoneNumber: string, text: string): Promise<void>;
}

export class MessageNotDelivered extends Error {}
