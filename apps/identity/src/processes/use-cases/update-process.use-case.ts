import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { UpdateProcessDto } from '../dto/process.dto';
import { ProcessEntity } from '../process.entity';
import { ProcessStore } from '../process.store';

/** PUT /v1/processes/{id}: the device data of a pending process (its phone number, device info). */
@Injectable()
export class UpdateProcessUseCase {
  constructor(private readonly store: ProcessStore) {}

  execute(caller: Caller, id: string, dto: UpdateProcessDto): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, true, async (m, p) => {
      if (dto.phone_number !== undefined) p.phoneNumber = dto.phone_number;
      if (dto.device_info !== undefined) p.deviceInfo = dto.device_info;
      await this.store.settle(m, p);
    });
  }
}
