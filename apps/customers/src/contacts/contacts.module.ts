import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ProfilesModule } from '../profiles/profiles.module';
import { ContactEntity } from './contact.entity';
import { ContactPropertyEntity } from './contact-property.entity';
import { ContactPropertiesController, ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';

@Module({
  imports: [TypeOrmModule.forFeature([ContactEntity, ContactPropertyEntity]), ProfilesModule],
  controllers: [ContactPropertiesController, ContactsController],
  providers: [ContactsService],
})
export class ContactsModule {}
