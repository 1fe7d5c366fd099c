// The banking assistant's demo customers: what the local twin seeds into its core-banking table at
// boot, and what the tests run against. Alice pays Sam and Bob; Sam pays Alice; Bob holds a second
// currency (a EUR savings account), for transfers the bank must refuse.
import type { CustomerSeed } from "../../lambdas/store/core-banking.ts";

export type DemoCustomer = CustomerSeed;

const OPENED_AT = "2024-01-15T09:00:00.000Z";

export const DEMO_CUSTOMERS: readonly DemoCustomer[] = [
  {
    customer_id: "cust_alice",
    name: "Alice Martin",
    accounts: [
      {
        account_id: "acc_alice_chk",
        type: "checking",
        name: "Everyday Checking",
        last4: "1234",
        currency: "USD",
        balance_minor: 250_000,
        status: "open",
        opened_at: OPENED_AT,
      },
      {
        account_id: "acc_alice_sav",
        type: "savings",
        name: "Savings",
        last4: "5678",
        currency: "USD",
        balance_minor: 1_000_000,
        status: "open",
        opened_at: OPENED_AT,
      },
    ],
    cards: [
      {
        card_id: "card_alice_debit",
        kind: "debit",
        last4: "4321",
        account_id: "acc_alice_chk",
        status: "active",
      },
      { card_id: "card_alice_credit", kind: "credit", last4: "9876", status: "active" },
    ],
    payees: [
      {
        payee_id: "payee_alice_sam",
        name: "Sam Lee",
        aliases: ["Sam", "Sammy"],
        to_customer_id: "cust_sam",
        to_account_id: "acc_sam_chk",
      },
      {
        payee_id: "payee_alice_bob",
        name: "Bob Stone",
        aliases: ["Bob"],
        to_customer_id: "cust_bob",
        to_account_id: "acc_bob_chk",
      },
    ],
  },
  {
    customer_id: "cust_sam",
    name: "Sam Lee",
    accounts: [
      {
        account_id: "acc_sam_chk",
        type: "checking",
        name: "Checking",
        last4: "2468",
        currency: "USD",
        balance_minor: 30_000,
        status: "open",
        opened_at: OPENED_AT,
      },
    ],
    cards: [
      {
        card_id: "card_sam_debit",
        kind: "debit",
        last4: "1357",
        account_id: "acc_sam_chk",
        status: "active",
      },
    ],
    payees: [
      {
        payee_id: "payee_sam_alice",
        name: "Alice Martin",
        aliases: ["Alice"],
        to_customer_id: "cust_alice",
        to_account_id: "acc_alice_chk",
      },
    ],
  },
  {
    customer_id: "cust_bob",
    name: "Bob Stone",
    accounts: [
      {
        account_id: "acc_bob_chk",
        type: "checking",
        name: "Checking",
        last4: "1111",
        currency: "USD",
        balance_minor: 4_000,
        status: "open",
        opened_at: OPENED_AT,
      },
      {
        account_id: "acc_bob_sav",
        type: "savings",
        name: "Savings",
        last4: "2222",
        currency: "EUR",
        balance_minor: 50_000,
        status: "open",
        opened_at: OPENED_AT,
      },
    ],
    cards: [
      {
        card_id: "card_bob_debit",
        kind: "debit",
        last4: "3333",
        account_id: "acc_bob_chk",
        status: "active",
      },
    ],
    payees: [],
  },
];
