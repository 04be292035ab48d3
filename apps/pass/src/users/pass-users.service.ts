import { randomUUID } from 'node:crypto';

import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ClaimProvenance } from './claim-provenance';
import { SeedUserDto } from './dto/seed-user.dto';
import { PassUserEntity } from './pass-user.entity';

/** The people who sign in with pass and their verified data (the claim store). */
@Injectable()
export class PassUsersService {
  constructor(
    @InjectRepository(PassUserEntity) private readonly users: Repository<PassUserEntity>,
    private readonly clock: Clock,
  ) {}

  findById(id: string): Promise<PassUserEntity | null> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return Promise.resolve(null);
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<PassUserEntity | null> {
    return this.users.findOneBy({ email: email.trim().toLowerCase() });
  }

  /**
   * The person who just answered the sign-in code sent to this e-mail (created on their first sign-in, with an
   * unverified identity): their e-mail claim is now proven by pass itself.
   */
  async findOrCreate(email: string): Promise<PassUserEntity> {
    const user = await this.ensure(email);
    if (user.provenance.email?.source !== 'pass') {
      user.provenance = { ...user.provenance, email: this.proof('pass', 'email_otp') };
      await this.users.update({ id: user.id }, { provenance: user.provenance });
    }
    return user;
  }

  /** Creates or replaces the verified data of a person (operator seed; see SeedUserDto), recorded as the operator's. */
  async seed(dto: SeedUserDto): Promise<PassUserEntity> {
    const user = await this.ensure(dto.email);
    const operator = this.proof('operator', 'operator_seed');
    const provenance = { ...user.provenance };
    if (!provenance.email || provenance.email.source === 'legacy') provenance.email = operator;
    if (dto.phone_number !== undefined) user.phoneNumber = dto.phone_number;
    if (dto.phone_verified !== undefined) user.phoneVerified = dto.phone_verified;
    if (dto.phone_number !== undefined || dto.phone_verified !== undefined) provenance.phone = operator;
    if (dto.identity) {
      user.identity = {
        ...dto.identity,
        verification_date: this.clock.now().toISOString(),
        verification_methods: ['document', 'face'],
      };
      provenance.identity = operator;
    }
    if (dto.documents) {
      user.documents = dto.documents.map((d) => ({ ...d, verified: true }));
      provenance.documents = Object.fromEntries(
        user.documents.map((d) => [`${d.country}:${d.document_type}`, operator]),
      );
    }
    if (dto.address) {
      user.address = { ...dto.address };
      provenance.address = operator;
    }
    if (dto.biometric) {
      user.biometric = { ...dto.biometric };
      provenance.biometric = operator;
    }
    user.provenance = provenance;
    user.updatedAt = this.clock.now();
    return this.users.save(user);
  }

  private async ensure(email: string): Promise<PassUserEntity> {
    const normalized = email.trim().toLowerCase();
    const now = this.clock.now();
    await this.users.createQueryBuilder().insert().values(this.blank(normalized, now)).orIgnore().execute();
    return this.users.findOneByOrFail({ email: normalized });
  }

  private proof(source: 'pass' | 'operator', method: string): ClaimProvenance {
    return { source, method, verified_at: this.clock.now().toISOString() };
  }

  private blank(email: string, now: Date): PassUserEntity {
    return this.users.create({
      id: randomUUID(),
      email,
      phoneNumber: null,
      phoneVerified: false,
      identity: {},
      documents: [],
      background: {},
      biometric: {},
      address: null,
      provenance: {},
      createdAt: now,
      updatedAt: now,
    });
  }
}
