import { ApiProperty } from '@nestjs/swagger';

export class TelegramLinkView {
  @ApiProperty({
    description: 'Single-use code (32 characters of A-Za-z0-9_-)',
    example: 'hV3k2m9Q-x_0aB7cD1eF2gH3iJ4kL5mN',
  })
  code!: string;
  @ApiProperty({
    description: 'Opens the bot with the code prefilled',
    example: 'https://t.me/paper_alerts_bot?start=hV3k2m9Q-x_0aB7cD1eF2gH3iJ4kL5mN',
  })
  deepLink!: string;
  @ApiProperty({ example: 'paper_alerts_bot' }) botUsername!: string;
  @ApiProperty({ format: 'date-time', description: '15 minutes after minting' }) expiresAt!: string;
  @ApiProperty({ example: 'Send /start hV3k… to @paper_alerts_bot within 15 minutes.' }) instructions!: string;
}
