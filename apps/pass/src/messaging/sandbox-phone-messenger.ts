import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

import { MessageNotDelivered, PhoneMessenger } from './phone-messenger';

export interface SandboxMessage {
  to: string;
  text: string;
  sent_at: string;
}

/**
 * SANDBOX messaging provider: behaves like the real messaging-app API (a delivery takes 20-60 ms; numbers
 * configured as unreachable fail like an undeliverable number does) but delivers nowhere: messages are kept
 * in memory (GET /v1/admin/sandbox/messages) and, when PASS_SANDBOX_OUTBOX_DIR is set, appended to
 * messages.jsonl there.
 */
export class SandboxPhoneMessenger extends PhoneMessenger {
  private readonly sent: SandboxMessage[] = [];

  constructor(
    private readonly unreachable: readonly string[],
    private readonly outboxDir?: string,
  ) {
    super();
  }

  async send(phoneNumber: string, text: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(Math.random() * 40)));
    if (this.unreachable.includes(phoneNumber)) throw new MessageNotDelivered(`sandbox: ${phoneNumber} is unreachable`);
    const message = { to: phoneNumber, text, sent_at: new Date().toISOString() };
    this.sent.push(message);
    if (this.sent.length > 1000) this.sent.shift();
    if (this.outboxDir) {
      await mkdir(this.outboxDir, { recursive: true });
      await appendFile(path.join(this.outboxDir, 'messages.jsonl'), `${JSON.stringify(message)}\n`);
    }
  }

  /** The messages "delivered" to a number, oldest first. */
  messages(phoneNumber?: string): SandboxMessage[] {
    return this.sent.filter((m) => !phoneNumber || m.to === phoneNumber);
  }
}
