import { Caller, PlatformErrorCode, PlatformException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ProcessEntity } from '../processes/process.entity';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { WalletClient, WalletRefused, WalletValidation } from './wallet.client';

const WALLET_DOCUMENT_TYPES = new Set(['national-id', 'foreign-id', 'driver-license', 'passport']);

/**
 * POST /v1/processes/feed-wallet: the process of the calling web key writes its successful
 * document validations to the user's wallet, with the authorization code the sign-up frame gave.
 */
@Injectable()
export class WalletService {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly wallet: WalletClient,
  ) {}

  async feed(caller: Caller, code: string): Promise<{ process: ProcessEntity; written: number }> {
    if (caller.keyType === 'backend')
      throw new ProcessException(ProcessErrorCode.WebKeyRequired, "the wallet is fed with the process's web key");
    const process = await this.processes.findOneBy({ tenantId: caller.tenantId, keyId: caller.keyId });
    if (!process || process.deletedAt)
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, 'this key has not started a process');
    if (process.status !== 'success')
      throw new ProcessException(
        ProcessErrorCode.ProcessNotFinished,
        'only a successful process feeds the wallet (its validations are verified)',
      );
    if (!this.wallet.configured)
      throw new PlatformException(PlatformErrorCode.Unavailable, 'the wallet is not configured (IDENTITY_PASS_URL)');
    try {
      const { written } = await this.wallet.feed(code, walletValidations(process));
      return { process, written };
    } catch (err) {
      if (!(err instanceof WalletRefused)) throw err;
      throw new ProcessException(ProcessErrorCode.WalletRefused, `the wallet refused the code: ${err.status}`);
    }
  }
}

/** The successful document steps with the document data the process collected. */
export function walletValidations(p: ProcessEntity): WalletValidation[] {
  const type = p.variables.document_type;
  const number = p.variables.document_number;
  if (!number || !type || !WALLET_DOCUMENT_TYPES.has(type)) return [];
  return p.steps
    .filter((s) => s.type === 'document' && s.status === 'success' && s.validation_id)
    .map((s) => ({
      type: 'document' as const,
      resource_id: s.validation_id!,
      verified: true,
      process_id: `${p.id}:${s.verification_id}`,
      document: {
        document_number: number.slice(0, 40),
        document_type: type,
        ...(/^[A-Z]{2}$/.test(p.variables.country ?? '') ? { country: p.variables.country } : {}),
      },
    }));
}
