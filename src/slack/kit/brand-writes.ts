/**
 * The brand changes the bot can make, named once. The phrase is both what a refusal says
 * ("Only the bot's admins can add markets") and the `action` of the audit entry, so the
 * audit log reads the same whether the change was made, refused or failed.
 */
export const BRAND_WRITES = {
  addMarket: 'add markets',
  removeMarket: 'remove markets',
  setLocation: 'change the primary location',
  setAliases: 'change aliases',
} as const;

export type BrandWrite = (typeof BRAND_WRITES)[keyof typeof BRAND_WRITES];
