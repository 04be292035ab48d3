import { randomUUID } from 'node:crypto';

import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { SeedUserDto } from './dto/seed-user.dto';
import { BackgroundClaims, PassUserEntity } from './pass-user.entity';

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

  /** A person signing in for the first time gets a record with an unverified identity. */
  async findOrCreate(email: string): Promise<PassUserEntity> {
    const normalized = email.trim().toLowerCase();
    const now = this.clock.now();
    await this.users.createQueryBuilder().insert().values(this.blank(normalized, now)).orIgnore().execute();
    return this.users.findOneByOrFail({ email: normalized });
  }

  /** Creates or replaces the verified data of a person (operator seed; see SeedUserDto). */
  async seed(dto: SeedUserDto): Promise<PassUserEntity> {
    const user = await this.findOrCreate(dto.email);
    if (dto.phone_number !== undefined) user.phoneNumber = dto.phone_number;
    if (dto.phone_verified !== undefined) user.phoneVerified = dto.phone_verified;
    if (dto.identity)
      user.identity = {
        ...dto.identity,
        verification_date: this.clock.now().toISOString(),
        verification_methods: ['document', 'face'],
      };
    if (dto.documents) user.documents = dto.documents.map((d) => ({ ...d, verified: true }));
    if (dto.address) user.address = { ...dto.address };
    if (dto.biometric) user.biometric = { ...dto.biometric };
    user.updatedAt = this.clock.now();
    return this.users.save(user);
  }

  /** Records the latest background check of a person (from checks.check.finished). */
  async recordBackground(email: string, background: BackgroundClaims): Promise<void> {
    const user = await this.findByEmail(email);
    if (!user) return;
    user.background = background;
    user.updatedAt = this.clock.now();
    await this.users.save(user);
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
      createdAt: now,
      updatedAt: now,
    });
  }
}
