import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { IsNotEmpty } from 'class-validator';
import { Flag } from '../http/field-decorators.js';
import { IdPipe } from '../http/id-pipe.js';
import { STORE_VISIBILITY } from '../rules/storefront.js';
import { SetStoreVisibility } from './commands/store-visibility.js';

export class StoreVisibilityDto {
  @IsNotEmpty({ message: STORE_VISIBILITY.hidden })
  @Flag(STORE_VISIBILITY.hidden)
  hidden: boolean;
}

/** Admins hide a merchant's store page and coupons from the public site, or show them again. */
@ApiTags('admin')
@Controller('admin/stores')
export class AdminStoresController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':merchantId')
  setVisibility(@Param('merchantId', IdPipe) merchantId: number, @Body() body: StoreVisibilityDto) {
    return this.commands.execute(new SetStoreVisibility(merchantId, body.hidden));
  }
}
