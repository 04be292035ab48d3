import { createServer, Server } from 'node:net';

import { PermanentDeliveryError, SmtpClient } from './smtp-client';

/** A minimal SMTP server answering every command with `reply` after the greeting. */
function smtpServer(reply: string): Promise<{ server: Server; url: string }> {
  const server = createServer((socket) => {
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (data) => {
      for (const line of data.toString().split('\r\n').filter(Boolean))
        socket.write(/^(EHLO|HELO)/i.test(line) ? '250 test\r\n' : `${reply}\r\n`);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `smtp://127.0.0.1:${port}` });
    }),
  );
}

describe('SmtpClient', () => {
  it('without a URL, refuses every send with a permanent error naming the setting', async () => {
    const smtp = new SmtpClient(undefined, 'kyc@example.com', 'X_SMTP_URL');
    expect(smtp.configured).toBe(false);
    await expect(smtp.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
      new PermanentDeliveryError('e-mail is not configured on this platform (X_SMTP_URL is not set)'),
    );
  });

  it('turns a 5xx reply into a permanent error carrying the reply code', async () => {
    const { server, url } = await smtpServer('550 mailbox unavailable');
    const smtp = new SmtpClient(url, 'kyc@example.com', 'X_SMTP_URL');
    try {
      const sent = smtp.send({ to: 'a@example.com', subject: 's', text: 't' });
      await expect(sent).rejects.toBeInstanceOf(PermanentDeliveryError);
      await expect(sent).rejects.toMatchObject({ responseCode: 550 });
    } finally {
      smtp.close();
      server.close();
    }
  });
});
