import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ProcessEntity } from '../processes/process.entity';
import { PassWalletClient, WalletClient } from './wallet.client';
import { WalletController } from './wallet.controller';
import { WalletService } from './wallet.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessEntity])],
  controllers: [WalletController],
  providers: [WalletService, { provide: WalletClient, useClass: PassWalletClient }],
})
export class WalletModule {}
