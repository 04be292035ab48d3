import { Module } from '@nestjs/common';

import { EmbedController } from './embed.controller';

/** `/pass.js`: the embedded client script. */
@Module({ controllers: [EmbedController] })
export class EmbedModule {}
