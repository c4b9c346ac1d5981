import { z } from 'zod';
import { defineContracts, pageParams } from './contract';
import { currency, minorUnits, pageOf, reg, timestamp } from './schemas';

export const phoneQuery = z.string().max(32, { error: 'phone must be at most 32 characters.' }).optional();

const shopOrderSchema = reg(
  'ShopOrder',
  z.strictObject({
    order_reference: z.string(),
    status: z.enum(['pending', 'paid', 'failed']),
    currency,
    amount: minorUnits,
    recipient: z.strictObject({ name: z.string(), phone_number: z.string() }),
    buyer: z.strictObject({ name: z.string(), phone_number: z.string().optional(), email: z.string().optional() }),
    message: z.string().optional().meta({ description: 'Plain text as the buyer typed it; show it as text' }),
    card_number: z.string().optional().meta({ description: 'The card the order credited, once paid' }),
    link_reference: z.string().meta({ description: "The order's payment: refund it with POST /card/payments/{reference}/refund" }),
    refunded_amount: minorUnits,
    failure_reason: z.string().optional(),
    created_at: timestamp,
    paid_at: timestamp.optional(),
  }),
  'A card bought on your shop (/shop/{slug}) for someone.',
);

const shopOrderPageSchema = reg('ShopOrderPage', pageOf(shopOrderSchema));

export type ShopOrder = z.output<typeof shopOrderSchema>;
export type ShopOrderPage = z.output<typeof shopOrderPageSchema>;

const example = {
  order_reference: 'ord_7Hn2kQ9xL4mP8sV1cR6tY3wB',
  status: 'paid' as const,
  currency: 'ETB' as const,
  amount: 50000,
  recipient: { name: 'Hanna Tesfaye', phone_number: '+251911234567' },
  buyer: { name: 'Abebe Kebede', email: 'abebe@example.com' },
  message: 'Happy birthday!',
  card_number: '4000123412341234',
  link_reference: 'pay_3mV8qL1xT6nB9cK4',
  refunded_amount: 0,
  created_at: '2026-06-01T09:12:40.118Z',
  paid_at: '2026-06-01T09:14:02.540Z',
};

export const shopContracts = defineContracts({
  listShopOrders: {
    method: 'get',
    path: '/shop/orders',
    scope: 'read',
    tag: 'Shop',
    summary: 'List the orders of your shop',
    description: 'Beyond SPEC.md. Newest first; `phone` finds orders whose recipient or buyer phone number ends with the digits given.',
    query: [...pageParams, { name: 'phone', description: "Any ending of the recipient's or the buyer's phone number", schema: phoneQuery }],
    success: {
      status: 200,
      message: 'Shop orders retrieved successfully',
      data: shopOrderPageSchema,
      examples: { page: { items: [example], total: 1, page: 1, limit: 20, pages: 1 } },
    },
    errors: ['validation_error'],
  },
});
