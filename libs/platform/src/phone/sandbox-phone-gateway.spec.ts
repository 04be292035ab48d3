import { Repository } from 'typeorm';

import { PermanentDeliveryError } from '../mail/smtp-client';
import { ManualClock } from '../time/clock';
import { SandboxPhoneGateway, SandboxPhoneMessageColumns, sandboxPhoneMessageJson } from './sandbox-phone-gateway';

class Message extends SandboxPhoneMessageColumns {
  refId!: string;
}

describe('SandboxPhoneGateway', () => {
  const now = new Date('2026-11-25T06:00:00.000Z');
  const setup = () => {
    const insert = jest.fn().mockResolvedValue(undefined);
    const find = jest.fn().mockResolvedValue([]);
    const repo = { insert, find } as unknown as Repository<Message>;
    return { insert, find, gateway: new SandboxPhoneGateway(repo, new ManualClock(now)) };
  };
  const message = (phoneNumber: string) => ({
    id: 'MSG1',
    tenantId: 't1',
    refId: 'VAL1',
    phoneNumber,
    channel: 'sms',
    text: 'code 123456',
  });

  it('stores a delivered message with the clock time', async () => {
    const { insert, gateway } = setup();
    await gateway.deliver(message('+573001234567'));
    expect(insert).toHaveBeenCalledWith({ ...message('+573001234567'), createdAt: now });
  });

  it('refuses an unreachable number (+1555000xxxx) with a permanent error and stores nothing', async () => {
    const { insert, gateway } = setup();
    await expect(gateway.deliver(message('+15550001234'))).rejects.toBeInstanceOf(PermanentDeliveryError);
    expect(insert).not.toHaveBeenCalled();
  });

  it("reads the tenant's latest 50, of one number when given", async () => {
    const { find, gateway } = setup();
    await gateway.latest('t1');
    await gateway.latest('t1', '+573001234567');
    expect(find.mock.calls).toEqual([
      [{ where: { tenantId: 't1' }, order: { createdAt: 'DESC' }, take: 50 }],
      [{ where: { tenantId: 't1', phoneNumber: '+573001234567' }, order: { createdAt: 'DESC' }, take: 50 }],
    ]);
  });

  it('presents the common wire fields', () => {
    expect(sandboxPhoneMessageJson({ ...message('+573001234567'), createdAt: now })).toEqual({
      message_id: 'MSG1',
      phone_number: '+573001234567',
      channel: 'sms',
      text: 'code 123456',
      creation_date: '2026-11-25T06:00:00.000Z',
    });
  });
});
