import { Module } from '@nestjs/common';

import { PagesController } from './pages.controller';

/** `/assets/page.css`: the stylesheet of the pages a person sees. */
@Module({ controllers: [PagesController] })
export class PagesModule {}
