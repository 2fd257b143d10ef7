/* eslint-disable */
/* prettier-ignore */

/** An IntrospectionQuery representation of your schema.
 *
 * @remarks
 * This is an introspection of your schema saved as a file by GraphQLSP.
 * It will automatically be used by `gql.tada` to infer the types of your GraphQL documents.
 * If you need to reuse this data or update your `scalars`, update `tadaOutputLocation` to
 * instead save to a .ts instead of a .d.ts file.
 */
export type introspection = {
  "__schema": {
    "description": null,
    "queryType": {
      "name": "Query",
      "kind": "OBJECT"
    },
    "mutationType": {
      "name": "Mutation",
      "kind": "OBJECT"
    },
    "subscriptionType": {
      "name": "Subscription",
      "kind": "OBJECT"
    },
    "types": [
      {
        "kind": "OBJECT",
        "name": "AccountingStatementRow",
        "description": "One row of the statement for bookkeepers (REST `GET /api/v1/statements?format=accounting`, CONTRACT §11), each cell as the CSV has it (before quoting): dates in Africa/Johannesburg, amounts in rand with a dot.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "balance",
            "description": "Rand: the balance after this row (the opening or closing balance on those rows).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankReference",
            "description": "A payout's external_transfer_id.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "date",
            "description": "`YYYY-MM-DD HH:MM` in Africa/Johannesburg.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "In words.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "fee",
            "description": "Rand, zero or negative; null on the opening and closing rows. gross + fee = net.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "gross",
            "description": "Rand (`1234.56`); null on the opening and closing rows.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "net",
            "description": "Rand: the entry's amount; null on the opening and closing rows.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "orderReference",
            "description": "The payment's merchant_order_id or the payout's merchant_reference.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reference",
            "description": "The payment, payout or refund id.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "`opening`, `closing`, or an entry's type in lower case (`payment`, `payout`, `payout_fee`, `payout_return`, `refund`, `credit`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "String",
        "description": "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "ApiKey",
        "description": "A secret API key's record (spec \"API key record\"). The key itself is only ever returned once, as fullKey.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was issued.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "displayMask",
            "description": "For display: `sec1-{env}-{kid}…{checksum}`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "env",
            "description": "The environment the key works in: prd, tst or dev.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "expiresAt",
            "description": "When it stops (stopped) working, if ever.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The record id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "issuedBy",
            "description": "Who issued it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKeyIssuer",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "issuedByPersonId",
            "description": "The person who issued it, when issuedBy is PERSON: removing them revokes it.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "kid",
            "description": "The key id: the third part of `sec1-{env}-{kid}-…`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "The merchant the key authenticates.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "revokedAt",
            "description": "When it was revoked, if it was.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "role",
            "description": "The most it may do: its issuer's role when it was issued, lowered with theirs (docs/access.md).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonRole",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Whether it still authenticates.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKeyStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "Always `secret`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "ApiKeyIssuer",
        "description": "Who issued a secret key.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "MERCHANT",
            "description": "The merchant's first credentials, made with the merchant (and keys from before issuers were recorded).",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "OPERATOR",
            "description": "The operator (account manager), with `zarpay key issue`.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PERSON",
            "description": "One of the merchant's people (issuedByPerson); removing them revokes it.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "ApiKeyPayload",
        "description": "A key record as changed.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "apiKey",
            "description": "The record.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKey",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "ApiKeyStatus",
        "description": "Whether a secret key still authenticates.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "ACTIVE",
            "description": "Authenticates requests.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "EXPIRED",
            "description": "Refused with FORBIDDEN since its expiry.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "REVOKED",
            "description": "Refused with FORBIDDEN (replaced by regenerate, or revoked by the operator).",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "AuditEntry",
        "description": "One action on a payment or payout, by an operator or by zarpay itself.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "action",
            "description": "What: `payment.settle`, `payment.reconcile`, `payout.approve`, `payout.reveal_bank_account`, …",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "actor",
            "description": "Who: `operator`, `operator:<name>` (X-Operator-Name, the CLI sends ZARPAY_OPERATOR or the login name), `merchant:<id>` (an API key), `merchant:<id>/person:<id>` (a person in the dashboard), or `system:<task>`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "amountCents",
            "description": "The amount of the payout, or else the payment, the entry is about; null without one.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "at",
            "description": "When.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "detail",
            "description": "What was found and done (never an account number or a voucher code).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "Its position in the log (newest is highest).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentId",
            "description": "The payment, if any.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutId",
            "description": "The payout, if any.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "summary",
            "description": "The entry in words: who did what, to which payout or payment, and its amount (\"owner@shop.example created payout 3f2504e0 of R 250.00\"), in the reader's language: a dashboard person's own (setLanguage), English for an API key and the operator.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Balance",
        "description": "The payout balance (spec \"Balance\"; REST `GET /api/v1/payouts/balance`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "availableCents",
            "description": "What a new payout may reserve, in cents: balanceCents − reservedCents, never below 0.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "balanceCents",
            "description": "The total balance for payouts: grossCents − feesCents − withdrawalsCents − refundsCents + returnedCents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "breakdown",
            "description": "What made balanceCents, apart: payments and credits in, fees, payouts, refunds and returns out and in (REST `breakdown`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "BalanceBreakdown",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Always `ZAR`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose balance.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reservedCents",
            "description": "Held for pending, approved and processing payouts and pending refunds.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totals",
            "description": "Cumulative totals.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "BalanceTotals",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "BalanceBreakdown",
        "description": "What made balanceCents, apart, for a bookkeeper to check (REST `breakdown`): paymentsCents − paymentFeesCents + creditsCents − payoutsCents − payoutFeesCents − refundsCents + returnsCents = balanceCents. Summed from the ledger's journal when asked.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "creditsCents",
            "description": "Operator credits: money put in from outside (a top-up), not a sale.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentFeesCents",
            "description": "The fees of those payments.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentsCents",
            "description": "Captured payments credited to the balance (auto top-up), at their full amount.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutFeesCents",
            "description": "The fees of completed payouts.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutsCents",
            "description": "What completed payouts sent to the bank.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsCents",
            "description": "What succeeded refunds gave back to customers.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returnsCents",
            "description": "Payouts the bank gave back, credited to the balance again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "BalancePayload",
        "description": "The balance after the change.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "balance",
            "description": "The balance.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Balance",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "BalanceTotals",
        "description": "Cumulative totals since the merchant was created (CONTRACT §5).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "feesCents",
            "description": "Payment fees of credited payments, and fees of completed payouts.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "grossCents",
            "description": "Every credit: auto top-up amounts and operator credits.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsCents",
            "description": "What succeeded refunds gave back to customers: the sum of their amountCents, in cents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returnedCents",
            "description": "What the bank gave back of completed payouts (returnedAt set): the sum of their amountCents, in cents; their fees stay.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "withdrawalsCents",
            "description": "What completed payouts paid out: the sum of their amountCents, in cents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Bank",
        "description": "A South African bank an EFT payout may be paid into, with the universal branch code every EFT to it may use.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "id",
            "description": "A stable id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "The bank's name.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "universalBranchCode",
            "description": "Its universal branch code: paymentDetails.branchCode.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "BankReportEntry",
        "description": "One transaction of a bank report and what became of it.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "amountCents",
            "description": "The entry's amount, in cents.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "The entry's currency.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "detail",
            "description": "Why it is unmatched, or a return's reason in words.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "outcome",
            "description": "`completed` or `failed` (the payout was moved), `returned` (a completed payout the bank gave back: it stays completed, its amount came back), `unchanged` (the payout was already there), `unmatched` (nothing moved: see detail).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutId",
            "description": "The payout it names, when there is one.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "position",
            "description": "Its place in the file, from 0.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reference",
            "description": "The bank's reference for the entry (AcctSvcrRef, else NtryRef): a completed payout's externalTransferId.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "Int",
        "description": "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "BankReportImport",
        "description": "What importing a bank report did (CLI `zarpay payout batch import`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "alreadyImported",
            "description": "The same file was applied in full before: nothing changed now.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "appliedCount",
            "description": "Transactions applied so far (entryCount once applied).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completed",
            "description": "Payouts completed by this import.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "entries",
            "description": "Every transaction of the report, in file order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "BankReportEntry",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "entryCount",
            "description": "Transactions in the report.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "error",
            "description": "Why its job last failed, while the report is not applied.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failed",
            "description": "Payouts failed by this import (returned by the bank).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "kind",
            "description": "`camt.054` or `camt.053`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "messageId",
            "description": "The report's GrpHdr/MsgId.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reportId",
            "description": "The report, known by the SHA-256 of its bytes.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returned",
            "description": "Completed payouts the bank gave back by this import: still completed, returnedAt set, their amounts back in the balance (fees stay).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "`applying` (its job `payout.bank_report` is applying it: ask `bankReport(id)` again), `applied` (every entry; the counts are final), `failed` (its job gave up: `error` says why; import the file again to go on).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "unchanged",
            "description": "Entries whose payout was already where the entry says.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "unmatched",
            "description": "Entries that moved nothing: unknown payout, amount or currency differing, not booked, or a payout in another state.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "Boolean",
        "description": "The `Boolean` scalar type represents `true` or `false`.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "CreateMerchantPayload",
        "description": "A new merchant and its first secret key.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "apiKey",
            "description": "Its first key's record.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKey",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "fullKey",
            "description": "The complete secret key; shown once, never again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchant",
            "description": "The new merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Merchant",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "CreatePayeeInput",
        "description": "A new saved payee, and the password of the person adding it (a step-up: a session alone is not enough).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "code",
            "description": "For a person with a second factor: the 6 digits their authenticator app shows now, or one of their recovery codes (FORBIDDEN on `code` when missing or wrong).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "Your own name for it, 1 to 100 characters.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "password",
            "description": "The password you sign in with, entered again (FORBIDDEN on `password` when wrong; five wrong ones in 15 minutes: RATE_LIMIT_EXCEEDED).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentDetails",
            "description": "The bank account (INVALID_PAYMENT_DETAILS when a field is wrong).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentDetailsInput",
                "kind": "INPUT_OBJECT",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "CreatePaymentLinkInput",
        "description": "A new payment link (REST `POST /api/v1/payment-links`, camelCase).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "amountCents",
            "description": "A fixed amount within the merchant's payment limits; null or absent: the customer types it.",
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "What the customer pays for (1 to 200 characters).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "The merchant's own reference (at most 64 characters).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "singleUse",
            "description": "Close once one payment through it is captured (default false).",
            "type": {
              "kind": "SCALAR",
              "name": "Boolean",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "CreatePayoutInput",
        "description": "A new payout (REST `POST /api/v1/payouts` body, camelCase, plus `stepUp` for a person typing a new account).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "amountCents",
            "description": "What the recipient receives, greater than 0.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Must be `ZAR` (INVALID_CURRENCY otherwise).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "At most 500 characters.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "Unique per merchant, at most 100 characters: the same input replays the payout; another is CONFLICT.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "metadata",
            "description": "Free-form data, returned as given.",
            "type": {
              "kind": "SCALAR",
              "name": "JSON",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payeeId",
            "description": "A saved payee to pay (`payees`), instead of paymentDetails: its bank account is used. NOT_FOUND when unknown or removed.",
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentDetails",
            "description": "The bank account (INVALID_PAYMENT_DETAILS when a field is wrong); or payeeId instead.",
            "type": {
              "kind": "INPUT_OBJECT",
              "name": "PaymentDetailsInput",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutMethod",
            "description": "EFT.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutMethod",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "stepUp",
            "description": "A person signed in to the dashboard who types a new account (paymentDetails, not a saved payee) gives their password again here (FORBIDDEN on `stepUp.password` without it). Not needed for a payee, and never with an API key.",
            "type": {
              "kind": "INPUT_OBJECT",
              "name": "StepUpInput",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "CreatePayoutPayload",
        "description": "The payout created, or replayed by its merchantReference.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "created",
            "description": "False when merchantReference replayed an existing payout (REST answers 200 instead of 201).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payout",
            "description": "The payout.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payout",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "CustomerChannel",
        "description": "How a customer gets a payment's confirmation.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "EMAIL",
            "description": "E-mail to customer_info.email (SMTP_URL).",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SMS",
            "description": "SMS to customer_info.phone (SMS_URL).",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "CustomerInfoInput",
        "description": "Who to send the customer's confirmation to: email and/or phone.",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "email",
            "description": "An e-mail address.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "phone",
            "description": "A phone number in international (E.164) form, such as +27825550123 (spaces allowed; kept without them); gets the confirmation by SMS when SMS_URL is set. VALIDATION_FAILED otherwise.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "DateTime",
        "description": "An ISO 8601 UTC timestamp, e.g. `2026-11-22T10:15:30.000Z`.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "ImportBankReportInput",
        "description": "A bank report (camt.054 or camt.053 XML): exactly one of its text, its bytes in base64, or its bytes gzipped and in base64. A request body is at most 64 KiB, so larger reports go gzipped (XML shrinks about tenfold), or, up to 32 MiB, as XML to the operator's REST route POST /api/v1/operator/bank-reports (the CLI sends them there).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "content",
            "description": "The report's XML text.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "contentBase64",
            "description": "The report's bytes in base64 (UTF-8 XML).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "contentGzipBase64",
            "description": "The report's bytes, gzipped, in base64 (at most 16 MiB once unzipped).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "InitiatePaymentInput",
        "description": "A new payment (REST `POST /api/v1/payments/init` body, camelCase).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "amount",
            "description": "Cents, within the merchant's payment limits (Merchant.paymentLimits; INVALID_AMOUNT otherwise).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "cancelUrl",
            "description": "Where the customer goes after cancelling.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Must be `ZAR` (INVALID_CURRENCY otherwise).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "customerInfo",
            "description": "Who to confirm the payment to.",
            "type": {
              "kind": "INPUT_OBJECT",
              "name": "CustomerInfoInput",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "What is being bought, at most 200 characters; shown on the payment page.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failureUrl",
            "description": "Where the customer goes after a failure.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "idempotencyKey",
            "description": "The REST Idempotency-Key header: the same key and input replay; another input is CONFLICT. One namespace per merchant with REST.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "includeQr",
            "description": "Also return a QR code of the page. Default false.",
            "type": {
              "kind": "SCALAR",
              "name": "Boolean",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "intentType",
            "description": "Default PURCHASE_AND_REDEEM.",
            "type": {
              "kind": "ENUM",
              "name": "PaymentIntentType",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantOrderId",
            "description": "Unique per merchant, at most 255 characters: the same input replays; another is DUPLICATE_ORDER_ID.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "successUrl",
            "description": "Where the customer goes after paying (allow-listed domains; https in prd).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookUrl",
            "description": "Receives this payment's events instead of the merchant's URL.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "InitiatePaymentPayload",
        "description": "The payment and where the customer pays it.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "payment",
            "description": "The payment, status CREATED (or as it is now, for a replay).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentUrl",
            "description": "The hosted payment page to send the customer to.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "qrCode",
            "description": "Present when includeQr was true.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "PaymentQrCode",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "warnings",
            "description": "Return addresses the hosted page will not send the customer to (host not in the allow-list, or in prd not https on 443); empty when none.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RedirectWarning",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "InvitePersonPayload",
        "description": "A new invite: the link is valid 72 hours, once, and shown only here (and in the e-mail, when SMTP is set).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "emailed",
            "description": "Whether the link was e-mailed to the person.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "expiresAt",
            "description": "When the link stops working.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "inviteUrl",
            "description": "The link that sets the person's password and signs them in.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "person",
            "description": "The person invited.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Person",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "JSON",
        "description": "Free-form JSON: a payout's metadata as the merchant gave it, an event's data in the REST shape.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Job",
        "description": "One piece of background work: a webhook delivery, a customer e-mail, a reconciliation, a refund owed.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "attempts",
            "description": "How many times it has been run so far; for a recurring job, since it last succeeded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was queued.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The job's id (`zarpay jobs retry ID`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "key",
            "description": "What it is about, within its queue: a delivery, payment or attempt id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "lastError",
            "description": "Why its last try failed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose work it is; null for zarpay's own.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "queue",
            "description": "Its queue: `webhook.deliver`, `customer.email`, `customer.sms`, `payment.reconcile`, `payment.expire`, `payment.refund_owed`, `refund.request`, `sandbox.confirm`, `maintenance.purge`, `person.email`, `payout.bank_report`, `payment.request_email`, `maintenance.rate_limit_sweep`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "runAt",
            "description": "When it is (or was) due.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Where it is.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JobStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updatedAt",
            "description": "When it last changed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "ID",
        "description": "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "JobQueue",
        "description": "One queue of background work in figures (`zarpay jobs stats`; /metrics `zarpay_jobs`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "due",
            "description": "Jobs due now that no runner holds.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failed",
            "description": "Jobs that gave up, waiting for an operator.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "The queue: `webhook.deliver`, `customer.email`, `customer.sms`, `payment.reconcile`, `payment.expire`, `payment.refund_owed`, `refund.request`, `sandbox.confirm`, `maintenance.purge`, `person.email`, `payout.bank_report`, `payment.request_email`, `maintenance.rate_limit_sweep`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "oldestDueSeconds",
            "description": "How long the oldest due job has waited past its time; 0 when none is due.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Float",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "retrying",
            "description": "Jobs queued again after a failed try (also counted as due, scheduled or running). A recurring job that keeps failing stays here and never becomes failed: its row shows its last error and the tries since it last succeeded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "running",
            "description": "Jobs a runner holds now.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "scheduled",
            "description": "Jobs due later (a retry's backoff, a wait before reconciling).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "Float",
        "description": "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "JobStatus",
        "description": "Where a background job is.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "FAILED",
            "description": "Gave up after its tries; kept until an operator retries it.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "QUEUED",
            "description": "Waiting for its time or a free runner.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "RUNNING",
            "description": "Claimed by a runner now.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Merchant",
        "description": "A merchant: its fees, settings and (through its fields) balance, keys and webhook secrets. A merchant sees only itself.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "apiKeys",
            "description": "The merchant's secret key records (never the keys themselves), newest first.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ApiKey",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "autoTopup",
            "description": "Whether captured payments credit their net amount to the payout balance.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "balance",
            "description": "The merchant's payout balance.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Balance",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When the merchant was created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The merchant id (REST merchant_id).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "The trading name the hosted payment page shows.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentFeeBps",
            "description": "The proportional payment fee in basis points (250 = 2.5 %).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentFeeFixedCents",
            "description": "The fixed payment fee added to the proportional one.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentLimits",
            "description": "The amounts the merchant takes (REST payment_limits); 5500 to 300000 cents unless the account manager set others.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLimits",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentMethods",
            "description": "The ways to pay its hosted page offers, within those the service runs (REST payment_methods); null: every one the service has.",
            "args": [],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "PaymentMethod",
                  "kind": "ENUM",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutFeeCents",
            "description": "The flat fee of each payout, fixed when it is created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "redirectDomains",
            "description": "Hosts the hosted page may redirect customers to.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refunds",
            "description": "Every refund of the merchant, of all its payments, newest first (REST `GET /api/v1/refunds`; the dashboard's refunds list): `viewer { refunds(first: 25) { … } }`, or the operator's `merchant(id) { refunds }`. Rate limit: payment status.",
            "args": [
              {
                "name": "after",
                "description": "A cursor this list handed out: the page starts after it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "before",
                "description": "A cursor this list handed out: the page ends before it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "first",
                "description": "How many items from the start (after `after`), 0 to 100; without first and last, 50. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "last",
                "description": "How many items from the end (before `before`), 0 to 100. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "status",
                "description": "Only refunds in this state.",
                "type": {
                  "kind": "ENUM",
                  "name": "RefundStatus",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "MerchantRefundsConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportContact",
            "description": "Where customers get help (e-mail address, phone number or http(s) page), shown on the hosted payment page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportEmail",
            "description": "The support e-mail address the merchant set (REST support_email), shown on the hosted page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportPhone",
            "description": "The support phone number the merchant set (REST support_phone), shown on the hosted page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updatedAt",
            "description": "When its settings last changed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookSecrets",
            "description": "The merchant's webhook signing secrets, newest first (never the secrets themselves).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WebhookSecret",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookUrl",
            "description": "Where payout and payment events are delivered; null: nowhere.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "MerchantInput",
        "description": "A merchant's settings. On create, name is required; on update, only what is given changes.",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "addRedirectDomains",
            "description": "Adds to the allow-listed redirect domains (update only).",
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "String",
                  "kind": "SCALAR",
                  "ofType": null
                }
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "autoTopup",
            "description": "Credit captured payments (net of fees) to the payout balance.",
            "type": {
              "kind": "SCALAR",
              "name": "Boolean",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "The trading name shown on the payment page (1 to 200 characters).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentFeeBps",
            "description": "Payment fee in basis points, 0 to 10000.",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentFeeFixedCents",
            "description": "Fixed payment fee in cents, 0 to 1000000.",
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentLimits",
            "description": "The merchant's payment limits (update only; CLI `zarpay merchant limits`).",
            "type": {
              "kind": "INPUT_OBJECT",
              "name": "PaymentLimitsInput",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutFeeCents",
            "description": "Flat payout fee in cents, 0 to 1000000.",
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "redirectDomains",
            "description": "Replaces the allow-listed redirect domains (at most 50).",
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "String",
                  "kind": "SCALAR",
                  "ofType": null
                }
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportContact",
            "description": "Where customers get help: an e-mail address, a phone number or an http(s) page (at most 200 characters). Null or \"\" clears it.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookUrl",
            "description": "Where events are delivered (http(s); https in prd). Null clears it.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "MerchantPayload",
        "description": "The merchant as changed.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "merchant",
            "description": "The merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Merchant",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "MerchantRefundsConnection",
        "description": "A page of a merchant's refunds, newest first, with how many match on all pages.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "edges",
            "description": "The items of this page, each with its cursor, in the list's order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "MerchantRefundsConnectionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "pageInfo",
            "description": "Whether there are more pages, and the cursors to ask for them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCount",
            "description": "How many match the filter, on all pages.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "MerchantRefundsConnectionEdge",
        "description": "One refund of the page, with its cursor.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "cursor",
            "description": "This edge's place in the list, opaque: pass it as `after` or `before`. Stable when rows are added.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "node",
            "description": "The item.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Refund",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "MerchantSettingsInput",
        "description": "A merchant's change to its own settings (REST `PATCH /api/v1/merchant`, camelCase): only what is given changes.",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "allowedRedirectDomains",
            "description": "Replaces the hosts the hosted page may send customers back to (at most 50).",
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "String",
                  "kind": "SCALAR",
                  "ofType": null
                }
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentMethods",
            "description": "The ways to pay the hosted page offers (REST payment_methods), within those the service runs; null offers every one.",
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "PaymentMethod",
                  "kind": "ENUM",
                  "ofType": null
                }
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportEmail",
            "description": "The support e-mail address shown on the hosted page. Null clears it.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "supportPhone",
            "description": "The support phone number shown on the hosted page. Null clears it.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookUrl",
            "description": "Where events are delivered (http(s); in prd https and never a private address). Null clears it.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "Money",
        "description": "An amount of South African rand in cents: a whole number, exact up to 2^53 (not limited to 32 bits like Int). R 123.45 is 12345.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Mutation",
        "description": "Changes. Each has the same rules, error codes and rate limits as its REST twin (named in its description); operator moves are the CLI's. UNAUTHORIZED without credentials, FORBIDDEN to the wrong kind of caller.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "approvePayout",
            "description": "Approves a pending payout (operator only; CLI `zarpay payout approve`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION from any other state, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "beginSecondFactorSetup",
            "description": "Starts setting up the signed-in person's second factor (TOTP): a new secret, replacing one not yet confirmed. CONFLICT when they have one.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SecondFactorSetup",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "cancelPayout",
            "description": "Cancels a pending payout: it becomes rejected with the reason \"cancelled by account manager\" and its reservation is released (operator only; CLI `zarpay payout cancel`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "changePersonRole",
            "description": "Changes a person's role (an owner signed in to the dashboard, or the operator; never an API key). The keys they issued are lowered to the new role where they carried more. Errors: NOT_FOUND, CONFLICT for the last owner, FORBIDDEN for anyone else.",
            "args": [
              {
                "name": "id",
                "description": "The person id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "role",
                "description": "Their new role.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "PersonRole",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completePayout",
            "description": "Completes a processing payout: its gross amount (amount and fee) is deducted from the balance (operator only; CLI `zarpay payout complete`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "externalTransferId",
                "description": "The bank transfer reference; generated (`EFT-…`) when absent.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "confirmSecondFactorSetup",
            "description": "Confirms the second factor being set up with a code of the app: from now on sign-in asks for one. UNAUTHORIZED for a wrong code.",
            "args": [
              {
                "name": "code",
                "description": "The 6 digits the app shows.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SecondFactorConfirmed",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createMerchant",
            "description": "Creates a merchant with an empty balance and its first secret key (operator only; CLI `zarpay merchant create`). Errors: VALIDATION_FAILED (fields in `details`), FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "input",
                "description": "Its settings; name is required.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "MerchantInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "CreateMerchantPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createPayee",
            "description": "Saves a bank account as a payee (an owner signed in to the dashboard; never an API key), after the owner's password is entered again. At most 200 per merchant. Errors: FORBIDDEN (a key, another role, or a wrong password: then on `password`), RATE_LIMIT_EXCEEDED after five wrong passwords in 15 minutes, INVALID_PAYMENT_DETAILS, CONFLICT for an account that is a payee already or past 200.",
            "args": [
              {
                "name": "input",
                "description": "The payee.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "CreatePayeeInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayeePayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createPaymentLink",
            "description": "Creates a payment link (merchant only; REST `POST /api/v1/payment-links`). Rate limit: payment init. Errors: VALIDATION_FAILED, INVALID_AMOUNT (a fixed amount outside the merchant's payment limits), FORBIDDEN for the operator.",
            "args": [
              {
                "name": "input",
                "description": "The link.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "CreatePaymentLinkInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLinkPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createPayout",
            "description": "Creates a pending payout and reserves its gross amount at once (merchant only; REST `POST /api/v1/payouts`). Rate limit: payout create. A person signed in to the dashboard who types a new account (paymentDetails, not a saved payee) gives `stepUp` too; an API key never does. Errors: VALIDATION_FAILED, INVALID_CURRENCY, INVALID_PAYOUT_METHOD, INVALID_PAYMENT_DETAILS, INSUFFICIENT_BALANCE (the message gives the available and the required cents), CONFLICT for a merchantReference reused with other values, FORBIDDEN for the operator, and on `stepUp.password` or `stepUp.code` when a person's step-up is missing or wrong.",
            "args": [
              {
                "name": "input",
                "description": "The payout.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "CreatePayoutInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "CreatePayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createWebhookSecret",
            "description": "Creates the calling merchant's first active signing secret; the answer is the only place the secret appears (merchant only; REST `POST /api/v1/merchant/webhooks/secret`). Rate limit: credentials. Errors: CONFLICT when one is active (rotate instead), FORBIDDEN for the operator.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookSecretPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "creditBalance",
            "description": "Credits a merchant's payout balance through the ledger: money arriving from outside (operator only; CLI `zarpay balance credit`). Errors: NOT_FOUND for an unknown merchant, VALIDATION_FAILED, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "amountCents",
                "description": "Cents to credit, greater than 0.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "Money",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "memo",
                "description": "Why (kept in the journal).",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "The merchant.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "BalancePayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "expireApiKey",
            "description": "Expires a key now: FORBIDDEN from now on (operator only; CLI `zarpay key expire`). Errors: NOT_FOUND for an unknown kid, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "kid",
                "description": "The key id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKeyPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "exportPayoutBatch",
            "description": "Writes every approved payout into one pain.001.001.03 file and moves them to processing, in one transaction (operator only; CLI `zarpay payout batch export`). Errors: NOT_FOUND when no payout is approved, SERVICE_UNAVAILABLE when the PAYOUT_DEBTOR_* settings are unset, FORBIDDEN for a merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutBatchFilePayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failPayout",
            "description": "Fails a processing payout and releases its reservation (operator only; CLI `zarpay payout fail`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "reason",
                "description": "Why (1 to 500 characters).",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "importBankReport",
            "description": "Reads the bank's camt.054 or camt.053 report, checks it against the published schema of its version, and stores it with a job that applies it: completes the booked payouts, fails the returned ones, reports the rest. It answers at once with status `applying`; ask `bankReport(reportId)` until it is `applied`. The same file twice changes nothing (operator only; CLI `zarpay payout batch import`). Errors: VALIDATION_FAILED for content that is not such a report, breaks its schema (naming the lines) or is of a version whose schema is not shipped, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "input",
                "description": "The report.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "ImportBankReportInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "BankReportImport",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "initiatePayment",
            "description": "Initiates a payment and returns its hosted page (merchant only; REST `POST /api/v1/payments/init`: the same rules and idempotency). Rate limit: payment init. Errors: VALIDATION_FAILED, INVALID_AMOUNT, INVALID_CURRENCY, CONFLICT (an idempotencyKey reused with another input), DUPLICATE_ORDER_ID, FORBIDDEN for the operator.",
            "args": [
              {
                "name": "input",
                "description": "The payment.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "InitiatePaymentInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "InitiatePaymentPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "invitePerson",
            "description": "Invites a person to a merchant's dashboard with a role (an owner signed in to the dashboard, or the operator; never an API key; CLI `zarpay merchant invite`). Inviting someone not yet accepted again sends a new link with the new role. Errors: CONFLICT when the address belongs to a person already (change their role with changePersonRole), NOT_FOUND for an unknown merchant, FORBIDDEN for other roles and for API keys.",
            "args": [
              {
                "name": "email",
                "description": "Their e-mail address.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "The operator names the merchant; an owner invites to their own.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "role",
                "description": "What they may do.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "PersonRole",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "InvitePersonPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "issueApiKey",
            "description": "Issues a merchant another secret key; the merchant's other keys keep working (the operator, or a merchant for itself; CLI `zarpay key issue`). Errors: NOT_FOUND, FORBIDDEN for another merchant.",
            "args": [
              {
                "name": "merchantId",
                "description": "The merchant: the operator must name one; a merchant may only name itself.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "NewApiKeyPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "notifyPayment",
            "description": "Sends a captured payment's confirmation to its customer again, e-mail and/or SMS (operator only; audited; CLI `zarpay payment notify`): queued now with its tries counted afresh, whether it was sent, failed for good or is waiting for a retry. For PURCHASE it carries the voucher code. Errors: PAYMENT_NOT_FOUND, INVALID_STATUS_TRANSITION when the payment is not CAPTURED, VALIDATION_FAILED when a channel is off or the payment has no address for it (or for any channel that is on), FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "channels",
                "description": "Only these channels; default every channel that is on and that the customer gave an address for.",
                "type": {
                  "kind": "LIST",
                  "name": null,
                  "ofType": {
                    "name": null,
                    "kind": "NON_NULL",
                    "ofType": {
                      "name": "CustomerChannel",
                      "kind": "ENUM",
                      "ofType": null
                    }
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "id",
                "description": "The payment id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "NotifyPaymentPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reconcilePayment",
            "description": "Asks the payment provider about the payment's attempt in flight now and applies its answer, as the reconciler does after RECONCILE_AFTER_MS (operator, every environment; audited). Errors: PAYMENT_NOT_FOUND, SERVICE_UNAVAILABLE when the provider cannot answer.",
            "args": [
              {
                "name": "id",
                "description": "The payment id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "redeliverEvent",
            "description": "Sends an event again as a new delivery, with fresh attempts, to its URL or the merchant's current one (the operator, or a merchant its own events; CLI `zarpay webhooks redeliver`). Errors: NOT_FOUND for an unknown event, VALIDATION_FAILED when there is no URL to send it to, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "eventId",
                "description": "The event.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookDeliveryPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundPayment",
            "description": "Refunds a captured payment in full or in part (merchant only; REST `POST /api/v1/payments/{id}/refunds`: the same rules and idempotency). Rate limit: refund. Errors: VALIDATION_FAILED (an amount below 1 or above what is still refundable), INVALID_STATUS_TRANSITION (not captured), INSUFFICIENT_BALANCE, PAYMENT_NOT_FOUND, CONFLICT, FORBIDDEN for the operator.",
            "args": [
              {
                "name": "input",
                "description": "The refund.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "RefundPaymentInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RefundPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "regenerateSecretKey",
            "description": "Issues a new secret key and revokes the calling one at once: the next request with the old key is FORBIDDEN (merchant only; REST `POST /api/v1/merchant/api-keys/secret/regenerate`). Signed in to the dashboard, name the key to replace with kid. Rate limit: credentials. Errors: FORBIDDEN for the operator, NOT_FOUND for another merchant's kid.",
            "args": [
              {
                "name": "kid",
                "description": "The key to replace (a dashboard session must name it; a key replaces itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "NewApiKeyPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reissuePayoutBatchFile",
            "description": "A batch's file again, byte for byte as exported (operator only; CLI `zarpay payout batch file`). It carries full account numbers, so each call is in the audit log, like revealPayoutBankAccount. Errors: NOT_FOUND, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The batch id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutBatchFilePayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "rejectPayout",
            "description": "Rejects a pending or approved payout and releases its reservation (operator only; CLI `zarpay payout reject`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "reason",
                "description": "Why (1 to 500 characters).",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "removePayee",
            "description": "Removes a saved payee (an owner signed in to the dashboard): payouts already made to it are unchanged. Errors: NOT_FOUND, FORBIDDEN.",
            "args": [
              {
                "name": "id",
                "description": "The payee id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayeePayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "removePerson",
            "description": "Removes a person: they cannot sign in any more, their sessions (and open event streams) end at once, and the API keys they issued are revoked (an owner signed in to the dashboard, or the operator; never an API key). Errors: NOT_FOUND, CONFLICT for the last owner.",
            "args": [
              {
                "name": "id",
                "description": "The person id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "removeSecondFactor",
            "description": "Removes the signed-in person's second factor and recovery codes, with a code of it. CONFLICT while their merchant demands one.",
            "args": [
              {
                "name": "code",
                "description": "A code of the app, or a recovery code.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SignedInPerson",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "requestPayment",
            "description": "Makes a payment and e-mails the customer its page (merchant only; REST `POST /api/v1/payment-requests`). By e-mail only: an SMS never carries a link. Rate limit: payment init. Errors: VALIDATION_FAILED (also when e-mail is off: SMTP_URL not set), INVALID_AMOUNT (outside the merchant's payment limits), DUPLICATE_ORDER_ID, FORBIDDEN for the operator and for roles other than owner.",
            "args": [
              {
                "name": "input",
                "description": "The request.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "RequestPaymentInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentRequestPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "requireSecondFactor",
            "description": "Demands a second factor of everyone on the merchant (an owner signed in to the dashboard, who has one): people without one are signed out and set one up after their password at the next sign-in. `false` stops demanding it.",
            "args": [
              {
                "name": "required",
                "description": "Whether to demand it.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SignedInPerson",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "resolveRefund",
            "description": "Records how a refund went, as the operator learnt it from the provider, for a refund still PENDING longer than REFUND_PENDING_ALERT_MS (24 hours) whose provider never said (operator only, every environment; CLI `zarpay refund resolve`). Applied as the provider's word would be: the ledger, the merchant's refund.succeeded or refund.failed, once; audited with the note. Errors: REFUND_NOT_FOUND, INVALID_STATUS_TRANSITION for a refund already ended or not yet pending that long, VALIDATION_FAILED for an empty note.",
            "args": [
              {
                "name": "id",
                "description": "The refund id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "note",
                "description": "How the operator knows (1 to 500 characters), for the audit log; never shown to the merchant.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "outcome",
                "description": "What the provider says happened.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "RefundOutcome",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RefundPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "retryJob",
            "description": "Queues a failed job again, due now (operator only; CLI `zarpay jobs retry`). Errors: NOT_FOUND for an unknown job, INVALID_STATUS_TRANSITION for one that has not failed, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The job's id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RetryJobPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returnPayout",
            "description": "Records by hand the bank's return of a completed payout (CONTRACT §11), as an imported report's return does: it stays completed and gains returnedAt and returnReason, its amount comes back to the balance (the fee stays), and payout.returned is emitted (operator only; CLI `zarpay payout return`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION for a payout not completed or returned already, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "reason",
                "description": "Why (1 to 500 characters).",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "revealPayoutBankAccount",
            "description": "The full bank account of a payout, for the operator making the transfer (operator only). The one way to the full account number: each call is audited with who, when and the reason. Errors: PAYOUT_NOT_FOUND.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "reason",
                "description": "Why it is needed (1 to 500 characters), for the audit log.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RevealPayoutBankAccountPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "revokeApiKey",
            "description": "Revokes a key: FORBIDDEN from now on, on every instance (the operator any key, a merchant its own; CLI `zarpay key revoke`). Errors: NOT_FOUND for an unknown kid or another merchant's.",
            "args": [
              {
                "name": "kid",
                "description": "The key id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKeyPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "rotateWebhookSecret",
            "description": "A new active secret; the old one keeps signing beside it for the rotation window, 24 hours by default (merchant only; REST `POST /api/v1/merchant/webhooks/secret/rotate`). Rate limit: credentials. Errors: FORBIDDEN for the operator.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookSecretPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "setLanguage",
            "description": "Sets the language the dashboard speaks to the signed-in person; kept with them, so it survives sign-out (a dashboard session only).",
            "args": [
              {
                "name": "language",
                "description": "en, af or zu.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "PersonLanguage",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SignedInPerson",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "settlePayment",
            "description": "Ends an open payment with this outcome, as the provider or customer would (operator only, tst/dev only: FORBIDDEN in prd; CLI `zarpay payment settle`). Errors: PAYMENT_NOT_FOUND, INVALID_STATUS_TRANSITION for a payment already ended.",
            "args": [
              {
                "name": "id",
                "description": "The payment id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "outcome",
                "description": "How it ends.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "PaymentOutcome",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "settleRefund",
            "description": "Ends a pending refund as its provider would (operator only, tst/dev only: FORBIDDEN in prd; CLI `zarpay refund settle`; audited). Errors: REFUND_NOT_FOUND, INVALID_STATUS_TRANSITION for a refund already ended.",
            "args": [
              {
                "name": "id",
                "description": "The refund id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "outcome",
                "description": "How it ends.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "RefundOutcome",
                    "kind": "ENUM",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RefundPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "startPayoutTransfer",
            "description": "Marks an approved payout's transfer as started: processing (operator only; CLI `zarpay payout process`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updateMerchant",
            "description": "Changes a merchant's settings (operator only; CLI `zarpay merchant update`). Errors: NOT_FOUND, VALIDATION_FAILED, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The merchant id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "input",
                "description": "What changes.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "MerchantInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "MerchantPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updateMerchantSettings",
            "description": "The calling merchant changes its own settings (REST `PATCH /api/v1/merchant`): webhook URL, redirect allow-list, support e-mail and phone. Rate limit: credentials. Errors: VALIDATION_FAILED (fields in `details`), FORBIDDEN for the operator (who uses updateMerchant).",
            "args": [
              {
                "name": "input",
                "description": "What changes.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "MerchantSettingsInput",
                    "kind": "INPUT_OBJECT",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "MerchantPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updatePaymentLink",
            "description": "Switches a payment link off (active: false) or on again (merchant only; REST `PATCH /api/v1/payment-links/{link_id}`). Rate limit: payment init. Errors: NOT_FOUND, also for another merchant's id; FORBIDDEN for the operator.",
            "args": [
              {
                "name": "active",
                "description": "false closes the link; true opens it again.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "id",
                "description": "The link id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLinkPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updateWebhookUrl",
            "description": "Sets where the calling merchant's events are delivered; null stops deliveries (merchant only). Errors: VALIDATION_FAILED for a URL that is not http(s), or in prd not https or resolving to a private address; FORBIDDEN for the operator, who uses updateMerchant.",
            "args": [
              {
                "name": "url",
                "description": "An http(s) URL (https in prd), or null.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UpdateWebhookUrlPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "NewApiKeyPayload",
        "description": "A newly issued secret key.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "apiKey",
            "description": "Its record.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "ApiKey",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "fullKey",
            "description": "The complete secret key; shown once, never again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "NotifiedChannel",
        "description": "One channel of a resent confirmation.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "channel",
            "description": "The channel.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "CustomerChannel",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "state",
            "description": "`queued`: due now, its tries counted afresh; `sending`: a runner is sending it at this moment.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "NotifyPaymentPayload",
        "description": "What was queued to send again.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "channels",
            "description": "Each channel the confirmation goes out on again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "NotifiedChannel",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payment",
            "description": "The payment.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "OperatorStats",
        "description": "The operator's overview (`zarpay stats`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "deliveriesFailed",
            "description": "Webhook deliveries that gave up after every retry.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "deliveriesPending",
            "description": "Webhook deliveries still to be made or retried.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "mismatchedNotifications",
            "description": "Provider \"paid\" notifications whose amount or currency did not match their attempt: nothing was captured and the money goes back (audit log `payment.notification_mismatch`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "mismatchedRefundNotifications",
            "description": "Provider refund notifications whose amount or currency did not match the refund: they settled nothing (audit log `refund.notification_mismatch`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "oldestPendingPayoutAt",
            "description": "The oldest payout awaiting approval.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "oldestPendingRefundAt",
            "description": "When the oldest refund still pending was asked for.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payouts",
            "description": "Payouts by state.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "PayoutStateStats",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "pendingApprovalCents",
            "description": "Gross amount awaiting approval: the operator's queue.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsFailed",
            "description": "Refunds the provider failed or refused.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsOwedFailed",
            "description": "Such money the provider refused, or failed, to give back: an operator gives it back by hand (audit log `payment.refund_failed`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsOwedPending",
            "description": "Money that arrived for a payment that had already ended, being given back through its provider: not yet confirmed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsOwedSucceeded",
            "description": "Such money the provider says it gave back.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsPending",
            "description": "Refunds waiting for their provider's outcome.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundsPendingStale",
            "description": "Refunds still pending longer than REFUND_PENDING_ALERT_MS (24 hours) after they were asked for: their provider's outcome never came. Check each with the provider, then resolveRefund (`zarpay refund list --stale`, `zarpay refund resolve`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reservedCents",
            "description": "Held for pending, approved and processing payouts, all merchants.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "sealedValuesUnreadable",
            "description": "Bank details and voucher codes found not to open under the data keys, by kind (`zarpay rotate-data-key --dry-run` looks at every one).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "UnreadableSealedValues",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PageInfo",
        "description": "Where a page sits in its list (Relay): whether there are more, and the cursors to ask for them.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "endCursor",
            "description": "The last edge's cursor: pass it as `after` for the next page; null on an empty page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "hasNextPage",
            "description": "Whether a page follows this one (paging forwards with first/after).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "hasPreviousPage",
            "description": "Whether a page comes before this one (paging backwards with last/before).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "startCursor",
            "description": "The first edge's cursor: pass it as `before` for the previous page; null on an empty page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Payee",
        "description": "A bank account an owner saved, with their password re-entered, to pay by id (`createPayout` with payeeId). The account number is masked.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "accountHolder",
            "description": "The account holder's full name.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "accountNumberMasked",
            "description": "`****` and the last four digits of the account number.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bank",
            "description": "The bank the branch code belongs to: where the money goes.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankName",
            "description": "The bank as it was typed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "branchCode",
            "description": "The bank's universal branch code.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was added.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The payee id: payeeId of a payout.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": "The merchant's own name for it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "unreadable",
            "description": "The sealed details will not open under this service's data keys (the fields above read `unreadable`): add the payee again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayeePayload",
        "description": "A payee as added or removed.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "payee",
            "description": "The payee.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payee",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Payment",
        "description": "A payment through the hosted payment page (spec \"Payment\"; REST `GET /api/v1/payments/{id}`). Amounts are in cents.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "amount",
            "description": "The amount in cents, within the merchant's payment limits when it was made.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completedAt",
            "description": "When it reached a terminal state.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was initiated.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Always `ZAR`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "customer",
            "description": "The customer details given at initiation (`customerInfo`); null when none were given.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "PaymentCustomer",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "What is being bought, shown on the payment page.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failureReason",
            "description": "Why a FAILED payment failed, when zarpay decided it: `expired` (not finished within PAYMENT_EXPIRES_AFTER_MS of its creation); `link_paid_already` (made through a single-use payment link another payment paid first: what the customer paid goes back); null otherwise.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "feeCents",
            "description": "The platform fee, fixed at initiation.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The payment id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "intentType",
            "description": "What happens after payment.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentIntentType",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "latestAttempt",
            "description": "The latest attempt; null until the customer starts paying.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "PaymentAttempt",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "The merchant who initiated it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantOrderId",
            "description": "The merchant's order id, unique per merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "netAmountCents",
            "description": "What the merchant receives, in cents: amount − feeCents; credited to the payout balance on capture when auto top-up is on; null once FAILED or CANCELLED (nothing is credited).",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentId",
            "description": "The same as id (REST payment_id).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentLink",
            "description": "The payment link it was made through (REST payment_link_id); null otherwise.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "PaymentLink",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentUrl",
            "description": "The hosted payment page.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "qrCode",
            "description": "A QR code of paymentUrl, to show or print while the payment is unpaid (its image link is signed and valid until createdAt + QR_URL_TTL_MS).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentQrCode",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refundedCents",
            "description": "The sum of the payment's succeeded refunds, in cents (the status stays CAPTURED).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refunds",
            "description": "The payment's refunds, newest first.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Refund",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Where the payment is in its life.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updatedAt",
            "description": "When it last changed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "voucherCode",
            "description": "The voucher issued on capture, for the merchant to redeem; null until issued. A viewer (session or key) reads it masked: `****-****-****-` and the last four digits.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "voucherRedeemed",
            "description": "Whether the voucher was redeemed (PURCHASE_AND_REDEEM redeems it at capture).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentAttempt",
        "description": "One attempt to take the payment with a provider (REST latest_attempt).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When the attempt started.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "provider",
            "description": "The payment provider's name: `yoco`, or `sandbox` outside prd.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "providerRef",
            "description": "The provider's reference; null until it answered.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "The attempt's state with the provider, lower case as in REST: `pending`, `succeeded`, `failed`, `cancelled` or `expired` (the provider no longer takes payment for it: the customer may pay again).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentCustomer",
        "description": "Who the payment's confirmation goes to, as given at initiation (`customerInfo`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "email",
            "description": "The customer's e-mail address, when given.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "phone",
            "description": "The customer's phone number (E.164), when given.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "PaymentDetailsInput",
        "description": "The South African bank account an EFT payout is paid into (spec \"Payment details\").",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "accountHolder",
            "description": "The account holder's full name.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "accountNumber",
            "description": "5 to 20 digits.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankName",
            "description": "The bank, e.g. First National Bank.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "branchCode",
            "description": "A South African bank's universal branch code (6 digits, e.g. 250655 for FNB); any other is INVALID_PAYMENT_DETAILS.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentEvent",
        "description": "A payment event: a payment reached captured, failed or cancelled.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was recorded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "data",
            "description": "The webhook body's `data`, in the REST shape.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The event id: the webhook-id and X-Service-Event-Id of its webhook.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose payment.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payment",
            "description": "The payment. Payment events come only from terminal states, which never change, so this is the payment as the event reported it; null if it is not stored.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "Payment",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentId",
            "description": "The payment.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "position",
            "description": "Where this event sits in the event log, as an opaque string: pass the last one received as `after` to resume the stream after it (for 7 days by default, EVENT_REPLAY_WINDOW_MS).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "For example `payment.captured`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PaymentIntentType",
        "description": "What happens after payment (spec \"Intent types\").",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "PURCHASE",
            "description": "A voucher is issued and its code shown to the customer to keep.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PURCHASE_AND_REDEEM",
            "description": "A voucher is issued and redeemed at once; the customer is redirected to successUrl.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentLimits",
        "description": "The amounts a merchant takes, in cents (INVALID_AMOUNT outside them); the account manager sets them (CLI `zarpay merchant limits`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "maxCents",
            "description": "The largest payment the merchant takes (REST max_cents).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "minCents",
            "description": "The smallest payment the merchant takes (REST min_cents).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "PaymentLimitsInput",
        "description": "A merchant's payment limits, both bounds: 100 to 10000000 cents each, minCents not above maxCents.",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "maxCents",
            "description": "The largest payment, in cents.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "minCents",
            "description": "The smallest payment, in cents.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentLink",
        "description": "A page the merchant shares (REST link): customers pay through it, each payment carrying the link (Payment.paymentLink).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "active",
            "description": "Whether its page takes payments.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "amountCents",
            "description": "The fixed amount; null when the customer types it.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "capturedCents",
            "description": "The sum of its captured payments' amounts.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "What the customer pays for.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The link id (REST link_id).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "The merchant whose payments it makes.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "The merchant's own reference.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentsCount",
            "description": "Payments made through it, whatever became of them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "qrCode",
            "description": "Its QR code.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLinkQrCode",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "singleUse",
            "description": "Closes once one of its payments is captured.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "url",
            "description": "The link's page: {PUBLIC_BASE_URL}/l/{id}.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentLinkPayload",
        "description": "The payment link.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "paymentLink",
            "description": "The link.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLink",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentLinkQrCode",
        "description": "A payment link's QR code.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "content",
            "description": "The URL the QR code holds: the link's url.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "imageUrl",
            "description": "A signed PNG image of it (swap .png for .svg); expires after QR_URL_TTL_MS.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PaymentMethod",
        "description": "A way the customer pays on the hosted page.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "CARD",
            "description": "A card, through Yoco (the sandbox's test card outside production when no card provider is configured).",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INSTANT_EFT",
            "description": "Instant EFT straight from the customer's bank, through Ozow.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PaymentOutcome",
        "description": "The terminal states a payment can be settled into.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "CANCELLED",
            "description": "As if the customer cancelled.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "CAPTURED",
            "description": "As if the provider confirmed the payment.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FAILED",
            "description": "As if the provider declined it.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentPayload",
        "description": "The payment after the change.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "payment",
            "description": "The payment.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentQrCode",
        "description": "A QR code of the payment page.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "content",
            "description": "The URL the QR code encodes: paymentUrl.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "imageUrl",
            "description": "Signed PNG link, valid 24 hours; .svg instead of .png works with the same query.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PaymentRequestPayload",
        "description": "The payment the request made, and where the customer pays it.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "emailQueued",
            "description": "True: the e-mail is on its way (retried until the mail server takes it). False: a replay of an earlier request; nothing is sent again.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payment",
            "description": "The payment, status CREATED, with the customer's e-mail.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentUrl",
            "description": "The hosted payment page the e-mail links to.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "qrCode",
            "description": "A QR code of the page.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentQrCode",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PaymentStatus",
        "description": "Where a payment is in its life (spec \"Payment states\"). REST writes these in lower case.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "AWAITING_WEBHOOK",
            "description": "The provider is processing; its confirmation is awaited.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "CANCELLED",
            "description": "The customer cancelled before paying. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "CAPTURED",
            "description": "Paid. With auto top-up the net amount was credited to the balance. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "CREATED",
            "description": "Initiated by the merchant; the customer has not started paying.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FAILED",
            "description": "The payment failed; the customer was not charged. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INITIATED",
            "description": "The customer started checkout with the provider.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Payout",
        "description": "An EFT payout (spec \"Payout\"; REST `GET /api/v1/payouts/{id}`). Amounts are in cents.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "amountCents",
            "description": "What the recipient receives.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankAccount",
            "description": "The account the payout is paid into, the number masked (`****` + last 4): the merchant its own, the operator any. The full number: revealPayoutBankAccount (operator only).",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "PayoutBankAccount",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completedAt",
            "description": "When the transfer completed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Always `ZAR`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "The merchant's description, when given.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "events",
            "description": "Every event of this payout, oldest first (one query for a whole page of payouts).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "PayoutHistoryEvent",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "externalTransferId",
            "description": "The bank transfer reference, once completed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failureReason",
            "description": "Why the transfer failed, once failed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "feeCents",
            "description": "The payout fee, fixed when the payout was created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "grossAmountCents",
            "description": "What the payout costs the balance, in cents: amountCents + feeCents; reserved at creation, deducted on completion, released on rejection or failure.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The payout id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchant",
            "description": "The merchant who created it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Merchant",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "The merchant who created it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "The merchant's own unique reference, when given.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "metadata",
            "description": "The merchant's free-form data, as given.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "JSON",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutMethod",
            "description": "Always EFT.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutMethod",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "rejectionReason",
            "description": "Why the operator rejected it, once rejected (`cancelled by account manager` for a cancellation).",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returnReason",
            "description": "Why the bank gave it back (`AC04 closed account`); null otherwise.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "returnedAt",
            "description": "When the bank gave a completed payout back (its status stays COMPLETED; its amount came back to the balance, its fee stays); null otherwise.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Where the payout is in its life.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "updatedAt",
            "description": "When it last changed.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutBankAccount",
        "description": "The bank account a payout is paid into, as the operator's payout view shows it: the account number masked.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "accountHolder",
            "description": "The account holder's full name.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "accountNumberMasked",
            "description": "`****` and the last four digits of the account number.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bank",
            "description": "The bank the branch code belongs to, recorded when the payout was created (for older payouts, told by the code): where the money goes, whatever bankName says. Null when the code is not on the list.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankName",
            "description": "The bank.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankNameMismatch",
            "description": "True when the merchant's bankName names another bank than the one the branch code belongs to: check with the merchant before paying.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "branchCode",
            "description": "The 6-digit branch code.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "unreadable",
            "description": "True when the sealed bank details will not open under any data key of this service (other key material under their kid, or damage); bankName, branchCode, accountHolder and accountNumberMasked then read `unreadable` (bank is still the one recorded at creation). Counted in stats.sealedValuesUnreadable.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutBatch",
        "description": "One ISO 20022 pain.001.001.03 credit-transfer file of approved payouts, exported once (CLI `zarpay payout batch export`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was exported.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdBy",
            "description": "Who exported it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "fileSha256",
            "description": "SHA-256 of the file's bytes (hex): the file written again has the same.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The batch id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "messageId",
            "description": "The file's GrpHdr/MsgId and PmtInfId, as the bank quotes it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutCount",
            "description": "How many payouts it pays.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payouts",
            "description": "Its payouts, in file order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Payout",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCents",
            "description": "What it pays in all, in cents (the file's CtrlSum).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutBatchFilePayload",
        "description": "A batch and its file (it carries full account numbers: handle it like the bank details it holds).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "batch",
            "description": "The batch.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutBatch",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "file",
            "description": "The pain.001.001.03 XML to send to the bank.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutBatchList",
        "description": "A page of payout batches, newest first.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "batches",
            "description": "The batches of this page.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "PayoutBatch",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCount",
            "description": "How many batches there are.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutEvent",
        "description": "A payout event: the payout as it was when the event was recorded.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was recorded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "data",
            "description": "The webhook body's `data`, in the REST shape.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The event id: the webhook-id and X-Service-Event-Id of its webhook.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose payout.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payout",
            "description": "The payout as the event recorded it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payout",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "position",
            "description": "Where this event sits in the event log, as an opaque string: pass the last one received as `after` to resume the stream after it (for 7 days by default, EVENT_REPLAY_WINDOW_MS).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "For example `payout.approved`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutHistoryEvent",
        "description": "One event of a payout, as sent to the merchant's webhook.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was recorded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "data",
            "description": "The webhook body's data: the payout as it was then, in the REST shape.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The event id: webhook-id and X-Service-Event-Id of its deliveries.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "`payout.created`, `payout.approved`, …",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PayoutMethod",
        "description": "How a payout is paid: only EFT (electronic funds transfer) to a South African bank account.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "EFT",
            "description": "Electronic funds transfer to the account in paymentDetails.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutPayload",
        "description": "The payout after the operator's move.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "payout",
            "description": "The payout.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payout",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PayoutStateStats",
        "description": "Payouts in one state.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "count",
            "description": "How many payouts are in it.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "grossCents",
            "description": "Their gross amounts together.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "The state.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PayoutStatus",
        "description": "Where a payout is in its life (spec \"Payout states\"). REST writes these in lower case.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "APPROVED",
            "description": "Approved, ready for transfer; still reserved.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "COMPLETED",
            "description": "The transfer succeeded; the amount and fee are deducted. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FAILED",
            "description": "The transfer failed; the reservation is released. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PENDING",
            "description": "Awaiting the operator's approval; the gross amount is reserved.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PROCESSING",
            "description": "The bank transfer has started; still reserved.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "REJECTED",
            "description": "Rejected (or cancelled) by the operator; the reservation is released. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Person",
        "description": "One of a merchant's people: signs in to the dashboard with an e-mail address and a password.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "active",
            "description": "Whether the invite was accepted (a password is set).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When they were first invited.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "email",
            "description": "Their e-mail address, lower case: what they sign in with.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The person id (named in the audit log).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "issuedKeys",
            "description": "The active secret keys this person issued, newest first: removing the person revokes them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ApiKey",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose person.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "role",
            "description": "What they may do.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonRole",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PersonLanguage",
        "description": "The language the dashboard speaks to a person (the hosted page's three).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "AF",
            "description": "Afrikaans.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "EN",
            "description": "English.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ZU",
            "description": "isiZulu.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "PersonPayload",
        "description": "A person as changed.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "person",
            "description": "The person.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Person",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "PersonRole",
        "description": "What a person may do in the dashboard and through GraphQL with their session, and the most a key they issue may do (docs/access.md).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "DEVELOPER",
            "description": "API keys and webhooks, and reading everything.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "OWNER",
            "description": "Everything: people (from a session only), payments, payouts, refunds, keys, webhooks, settings.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "VIEWER",
            "description": "Reading only.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Query",
        "description": "Reads. Merchants authenticate with `X-API-Key`; the operator with `Authorization: Bearer <OPERATOR_TOKEN>`. Every field answers UNAUTHORIZED without credentials and FORBIDDEN to the wrong kind of caller (a merchant asking an operator field, or the other way round); a merchant only ever sees its own data. Amounts are cents (Money).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "auditLog",
            "description": "The audit log, newest first: the operator every merchant's, a merchant's owner its own (FORBIDDEN for other roles).",
            "args": [
              {
                "name": "first",
                "description": "At most this many (1 to 500, default 100).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "offset",
                "description": "Skip this many first (0 to 10000; default 0): the next page starts at offset + first.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "paymentId",
                "description": "Only this payment's entries.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "payoutId",
                "description": "Only this payout's entries.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AuditEntry",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "balance",
            "description": "The payout balance: the caller's own, or the named merchant's for the operator (REST `GET /api/v1/payouts/balance`). Rate limit: balance check. Errors: FORBIDDEN for another merchant's id, VALIDATION_FAILED when the operator names none.",
            "args": [
              {
                "name": "merchantId",
                "description": "The operator names the merchant; a merchant may only name itself.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Balance",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankReport",
            "description": "An imported bank report as its job has applied it so far, null when there is none (operator only; CLI `zarpay payout batch import` waits on it). Errors: FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "id",
                "description": "The report id (importBankReport's reportId).",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "OBJECT",
              "name": "BankReportImport",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "banks",
            "description": "The South African banks a payout may be paid into, by name, with their universal branch codes: the codes `paymentDetails.branchCode` takes.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Bank",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "jobQueues",
            "description": "Every queue of background work in figures (operator only; CLI `zarpay jobs stats`). Errors: FORBIDDEN for a merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "JobQueue",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "jobs",
            "description": "Background jobs, newest first (operator only; CLI `zarpay jobs list`). Errors: VALIDATION_FAILED for an unknown queue or a `first` outside 1 to 100, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "first",
                "description": "How many, 1 to 100; default 50.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "queue",
                "description": "Only this queue: `webhook.deliver`, `customer.email`, `customer.sms`, `payment.reconcile`, `payment.expire`, `payment.refund_owed`, `refund.request`, `sandbox.confirm`, `maintenance.purge`, `person.email`, `payout.bank_report`, `payment.request_email`, `maintenance.rate_limit_sweep`.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "status",
                "description": "Only jobs in this state.",
                "type": {
                  "kind": "ENUM",
                  "name": "JobStatus",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Job",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ledgerVerification",
            "description": "Recomputes every balance from the journal and checks the ledger invariants: `{ ok, problems, … }` (operator only; CLI `zarpay ledger verify`). Errors: FORBIDDEN for a merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchant",
            "description": "One merchant, by id; null when there is none (operator only: FORBIDDEN for a merchant, who uses viewer).",
            "args": [
              {
                "name": "id",
                "description": "The merchant id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "OBJECT",
              "name": "Merchant",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchants",
            "description": "Every merchant, oldest first (operator only: FORBIDDEN for a merchant).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Merchant",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payees",
            "description": "The merchant's saved payees, oldest first (at most 200; REST `GET /api/v1/payees`). Every role and key reads them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Payee",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payment",
            "description": "One payment (REST `GET /api/v1/payments/{id}`): a merchant its own, the operator any. Rate limit: payment status. Errors: PAYMENT_NOT_FOUND, also for another merchant's id.",
            "args": [
              {
                "name": "id",
                "description": "The payment id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentLink",
            "description": "One payment link (REST `GET /api/v1/payment-links/{link_id}`): a merchant its own, the operator any. Rate limit: payment init. Errors: NOT_FOUND, also for another merchant's id.",
            "args": [
              {
                "name": "id",
                "description": "The link id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLink",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentLinks",
            "description": "Payment links, newest first. A merchant sees its own; the operator every merchant's, or one with merchantId. Rate limit: payment init. Errors: FORBIDDEN when a merchant names another merchant.",
            "args": [
              {
                "name": "after",
                "description": "A cursor this list handed out: the page starts after it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "before",
                "description": "A cursor this list handed out: the page ends before it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "first",
                "description": "How many items from the start (after `after`), 0 to 100; without first and last, 50. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "last",
                "description": "How many items from the end (before `before`), 0 to 100. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "Only this merchant's (the operator; a merchant may only name itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "QueryPaymentLinksConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payments",
            "description": "Payments, newest first. A merchant sees its own; the operator every merchant's, or one with merchantId. Rate limit: payment status. Errors: FORBIDDEN when a merchant names another merchant.",
            "args": [
              {
                "name": "after",
                "description": "A cursor this list handed out: the page starts after it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "before",
                "description": "A cursor this list handed out: the page ends before it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "createdFrom",
                "description": "Created at or after: a day (YYYY-MM-DD, Africa/Johannesburg, from its start) or an ISO 8601 timestamp with its offset.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "createdTo",
                "description": "Created at or before: a day (YYYY-MM-DD, Africa/Johannesburg, to its end) or an ISO 8601 timestamp with its offset.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "first",
                "description": "How many items from the start (after `after`), 0 to 100; without first and last, 50. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "last",
                "description": "How many items from the end (before `before`), 0 to 100. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "Only this merchant's (the operator; a merchant may only name itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantOrderId",
                "description": "Only the payment of this order id.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "search",
                "description": "REST `q`: payments whose order id is or starts with this text, whose amount is this text read as rand (\"100,50\", \"100.50\", \"R 100\"), or whose customer e-mail is this address (exactly, any case).",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "status",
                "description": "Only payments in this state.",
                "type": {
                  "kind": "ENUM",
                  "name": "PaymentStatus",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "QueryPaymentsConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payout",
            "description": "One payout (REST `GET /api/v1/payouts/{id}`): a merchant its own, the operator any. Rate limit: payout status. Errors: PAYOUT_NOT_FOUND, also for another merchant's id.",
            "args": [
              {
                "name": "id",
                "description": "The payout id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payout",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutBatches",
            "description": "Payout batches, newest first (operator only; CLI `zarpay payout batch list`). Errors: VALIDATION_FAILED for first or offset out of bounds, FORBIDDEN for a merchant.",
            "args": [
              {
                "name": "first",
                "description": "At most this many (1 to 100, default 20).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "offset",
                "description": "Skip this many first.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutBatchList",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payouts",
            "description": "Payouts, newest first (REST `GET /api/v1/payouts`). A merchant sees its own; the operator every merchant's, or one with merchantId. Rate limit: payout status. Errors: FORBIDDEN when a merchant names another merchant.",
            "args": [
              {
                "name": "after",
                "description": "A cursor this list handed out: the page starts after it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "before",
                "description": "A cursor this list handed out: the page ends before it. VALIDATION_FAILED for any other text.",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "first",
                "description": "How many items from the start (after `after`), 0 to 100; without first and last, 50. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "last",
                "description": "How many items from the end (before `before`), 0 to 100. VALIDATION_FAILED outside 0..100.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "Only this merchant's (the operator; a merchant may only name itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "status",
                "description": "Only payouts in this state.",
                "type": {
                  "kind": "ENUM",
                  "name": "PayoutStatus",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "QueryPayoutsConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "people",
            "description": "A merchant's people (invites too), oldest first: a merchant its own, the operator the merchant it names. All of them, or a page with `first` and `offset` (the dashboard asks for one more than it shows: that one says there is a next page).",
            "args": [
              {
                "name": "first",
                "description": "At most this many (1 to 500; left out: all).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "The operator names the merchant; a merchant may only name itself.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "offset",
                "description": "Skip this many first (0 to 10000; default 0): the next page starts at offset + first.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Person",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refund",
            "description": "One refund (REST `GET /api/v1/refunds/{id}`): a merchant its own, the operator any. Rate limit: payment status. Errors: REFUND_NOT_FOUND, also for another merchant's id.",
            "args": [
              {
                "name": "id",
                "description": "The refund id.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "UUID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Refund",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "refunds",
            "description": "Refunds, newest first (CLI `zarpay refund list`): a merchant its own, the operator every merchant's or one's; optionally one payment's. Errors: FORBIDDEN when a merchant names another merchant.",
            "args": [
              {
                "name": "limit",
                "description": "Page size, 1 to 100 (default 50).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "Only this merchant's (the operator; a merchant may only name itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "offset",
                "description": "How many to skip (default 0).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "paymentId",
                "description": "Only this payment's.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "stale",
                "description": "Only refunds still PENDING longer than REFUND_PENDING_ALERT_MS (24 hours) after they were asked for: their provider's outcome never came (CLI `zarpay refund list --stale`; resolveRefund).",
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RefundList",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "signedInPerson",
            "description": "The person signed in to the dashboard, with their role; null for a request made with an API key (merchant only).",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "SignedInPerson",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "statement",
            "description": "A statement (REST `GET /api/v1/statements`): the caller's own, or the named merchant's for the operator. Rate limit: balance check. Errors: VALIDATION_FAILED for bad dates, `from` after `to` or more than 366 days; FORBIDDEN for another merchant's id; NOT_FOUND for an unknown merchant.",
            "args": [
              {
                "name": "from",
                "description": "The first day, YYYY-MM-DD in Africa/Johannesburg.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "The operator names the merchant; a merchant may only name itself.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "to",
                "description": "The last day, YYYY-MM-DD in Africa/Johannesburg; at most 366 days, both counted.",
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Statement",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "stats",
            "description": "Payouts by state, amounts reserved and the approval queue (operator only; CLI `zarpay stats`). Errors: FORBIDDEN for a merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "OperatorStats",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "viewer",
            "description": "The merchant whose API key made this request (merchant only: FORBIDDEN for the operator, who uses merchant(id)). Counts against the balance-check rate limit.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Merchant",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookDeliveries",
            "description": "The delivery log, newest first: a merchant its own, the operator every merchant's or one's (`zarpay webhooks deliveries`). Errors: FORBIDDEN when a merchant names another merchant.",
            "args": [
              {
                "name": "eventId",
                "description": "Only this event's deliveries.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "first",
                "description": "How many, 1 to 100; default 50.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "Only this merchant's (a merchant may only name itself).",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "offset",
                "description": "Skip this many first (0 to 10000; default 0): the next page starts at offset + first.",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "status",
                "description": "Only deliveries in this state.",
                "type": {
                  "kind": "ENUM",
                  "name": "WebhookDeliveryStatus",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WebhookDelivery",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPaymentLinksConnection",
        "description": "A page of payment links, newest first, with how many there are on all pages.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "edges",
            "description": "The items of this page, each with its cursor, in the list's order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "QueryPaymentLinksConnectionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "pageInfo",
            "description": "Whether there are more pages, and the cursors to ask for them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCount",
            "description": "How many match the filter, on all pages.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPaymentLinksConnectionEdge",
        "description": "One payment link of the page, with its cursor.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "cursor",
            "description": "This edge's place in the list, opaque: pass it as `after` or `before`. Stable when rows are added.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "node",
            "description": "The item.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentLink",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPaymentsConnection",
        "description": "A page of payments, newest first, with how many match the filter on all pages.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "edges",
            "description": "The items of this page, each with its cursor, in the list's order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "QueryPaymentsConnectionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "pageInfo",
            "description": "Whether there are more pages, and the cursors to ask for them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCount",
            "description": "How many match the filter, on all pages.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPaymentsConnectionEdge",
        "description": "One payment of the page, with its cursor.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "cursor",
            "description": "This edge's place in the list, opaque: pass it as `after` or `before`. Stable when rows are added.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "node",
            "description": "The item.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPayoutsConnection",
        "description": "A page of payouts, newest first, with how many match the filter on all pages.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "edges",
            "description": "The items of this page, each with its cursor, in the list's order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "QueryPayoutsConnectionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "pageInfo",
            "description": "Whether there are more pages, and the cursors to ask for them.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "totalCount",
            "description": "How many match the filter, on all pages.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "QueryPayoutsConnectionEdge",
        "description": "One payout of the page, with its cursor.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "cursor",
            "description": "This edge's place in the list, opaque: pass it as `after` or `before`. Stable when rows are added.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "node",
            "description": "The item.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payout",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RedirectWarning",
        "description": "A return address of the payment that will not be followed; the payment page shows the result instead.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "field",
            "description": "Which input: successUrl, cancelUrl or failureUrl.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "message",
            "description": "Why, in words.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Refund",
        "description": "Money of a captured payment given back to its customer (REST `GET /api/v1/refunds/{id}`). Amounts are in cents.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "amountCents",
            "description": "What goes back, in cents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completedAt",
            "description": "When it succeeded or failed; null while PENDING.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When it was asked for.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "currency",
            "description": "Always `ZAR`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "failureReason",
            "description": "Why it failed; null unless FAILED.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The refund id (REST refund_id).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose payment it refunds.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "The merchant's own reference.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payment",
            "description": "The payment refunded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Payment",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentId",
            "description": "The payment refunded.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reason",
            "description": "Why, as the merchant said.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Where the refund is in its life.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RefundStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RefundList",
        "description": "A page of refunds, newest first, and how many match.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "refunds",
            "description": "The page.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Refund",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "total",
            "description": "How many refunds match, on every page.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "RefundOutcome",
        "description": "How a refund ends.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "FAILED",
            "description": "The money did not go back.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SUCCEEDED",
            "description": "The money went back.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RefundPayload",
        "description": "The refund after the change.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "refund",
            "description": "The refund.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Refund",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "RefundPaymentInput",
        "description": "A refund (REST `POST /api/v1/payments/{id}/refunds` body, camelCase, with the payment and the Idempotency-Key).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "amountCents",
            "description": "Cents to give back; left out: all that is still refundable. Null is refused (VALIDATION_FAILED), never read as \"all\".",
            "type": {
              "kind": "SCALAR",
              "name": "Money",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "idempotencyKey",
            "description": "The REST Idempotency-Key header: the same key and input replay; another input is CONFLICT.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantReference",
            "description": "The merchant's own reference, at most 64 characters.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "paymentId",
            "description": "The captured payment to refund.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reason",
            "description": "Why, at most 200 characters.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "RefundStatus",
        "description": "Where a refund is in its life (CONTRACT §10). REST writes these in lower case.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "FAILED",
            "description": "The provider failed or refused it; the reservation was released. Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PENDING",
            "description": "Asked of the provider; its amount is reserved on the balance.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SUCCEEDED",
            "description": "The provider gave the money back; the amount left the balance (refundsCents). Terminal.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "RequestPaymentInput",
        "description": "A payment request to e-mail a customer (REST `POST /api/v1/payment-requests`, camelCase).",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "amountCents",
            "description": "Cents, within the merchant's payment limits (INVALID_AMOUNT otherwise).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "customerEmail",
            "description": "Where the request goes; kept as the payment's customer e-mail (its confirmation goes there too).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "What the customer pays for, in the e-mail and on the payment page (1 to 200 characters).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantOrderId",
            "description": "The merchant's order id (unique per merchant: the same request again replays it and sends nothing more); absent: `request-{uuid}`.",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RetryJobPayload",
        "description": "The job, queued again.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "job",
            "description": "The job, due now with its tries counted afresh.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Job",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RevealPayoutBankAccountPayload",
        "description": "The payout's full bank account.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "bankAccount",
            "description": "The account, number in full.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "RevealedBankAccount",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "RevealedBankAccount",
        "description": "A payout's full bank account, for making the transfer by hand. Every reveal is in the audit log.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "accountHolder",
            "description": "The account holder's full name.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "accountNumber",
            "description": "The full account number.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankName",
            "description": "The bank.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "branchCode",
            "description": "The 6-digit branch code.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "SealedValueKind",
        "description": "What a value sealed with the data key is.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "PAYOUT_DETAILS",
            "description": "A payout's bank details.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "VOUCHER_CODE",
            "description": "A voucher's code.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "SecondFactorConfirmed",
        "description": "A second factor now asked at every sign-in.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "recoveryCodes",
            "description": "Ten recovery codes, each usable once instead of a code: shown only here.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "SecondFactorSetup",
        "description": "A TOTP secret being set up: scan the QR code (or type the secret) into an authenticator app, then confirm with a code.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "otpauthUri",
            "description": "The `otpauth://totp/…` URI (RFC 6238: SHA-1, 6 digits, 30 seconds).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "qrCode",
            "description": "The URI as a QR image, a `data:image/png;base64,…` URL.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "secret",
            "description": "The secret in base32, to type by hand.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "SignedInPerson",
        "description": "The person whose dashboard session made this request, with their own settings.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "email",
            "description": "Their e-mail address.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "language",
            "description": "The language the dashboard speaks to them (kept with them: it survives sign-out).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonLanguage",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "personId",
            "description": "Their person id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "recoveryCodesLeft",
            "description": "How many of their recovery codes are unused.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "role",
            "description": "Their role.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PersonRole",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "secondFactor",
            "description": "Whether sign-in asks them for a code of their authenticator app (TOTP).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "secondFactorRequired",
            "description": "Whether their merchant demands a second factor of everyone.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Statement",
        "description": "The movements of a merchant's balance over whole days in Africa/Johannesburg, oldest first: openingBalanceCents + the sum of amountCents = closingBalanceCents (CONTRACT §10).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "accountingRows",
            "description": "The statement for bookkeepers, row by row as REST `format=accounting` writes them: the opening row, one row per entry, the closing row.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AccountingStatementRow",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "closingBalanceCents",
            "description": "The balance (balanceCents) at the end of `to`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "entries",
            "description": "Oldest first. For a long, busy range prefer REST, which streams (JSON or CSV).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "StatementEntry",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "from",
            "description": "The first day (YYYY-MM-DD, SAST), included.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose statement.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "openingBalanceCents",
            "description": "The balance (balanceCents) at the start of `from`.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "to",
            "description": "The last day (YYYY-MM-DD, SAST), included.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "total",
            "description": "How many entries.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "StatementEntry",
        "description": "One movement of balanceCents (REST: an entry of `GET /api/v1/statements`).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "amountCents",
            "description": "Signed: credits positive, debits negative.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "balanceAfterCents",
            "description": "The balance (balanceCents) after this entry.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "bankReference",
            "description": "A payout's externalTransferId: the bank's reference.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": "In words.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "entryId",
            "description": "The journal leg this entry stands for: stable.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "feeCents",
            "description": "For the books: a payment's fee (negative); 0 on every other entry. grossCents + feeCents = amountCents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "grossCents",
            "description": "For the books: a payment's amount; on every other entry amountCents.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Money",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "orderReference",
            "description": "The payment's merchantOrderId or the payout's merchantReference.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "postedAt",
            "description": "When it was posted.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "reference",
            "description": "The payment, payout or refund id; null for a credit.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "UUID",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": "What moved the balance.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "StatementEntryType",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "StatementEntryType",
        "description": "What moved the balance. REST writes these in lower case.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "CREDIT",
            "description": "An operator credit.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PAYMENT",
            "description": "A captured payment credited by auto top-up: its amount less its fee.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PAYOUT",
            "description": "A completed payout's amount.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PAYOUT_FEE",
            "description": "A completed payout's fee.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PAYOUT_RETURN",
            "description": "A completed payout's amount the bank gave back (its fee stays).",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "REFUND",
            "description": "A refund paid back to a customer.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "INPUT_OBJECT",
        "name": "StepUpInput",
        "description": "The signed-in person proving once more that it is them: their password again, and their second factor when they have one.",
        "specifiedByURL": null,
        "isOneOf": false,
        "fields": null,
        "inputFields": [
          {
            "name": "code",
            "description": "For a person with a second factor: the 6 digits their authenticator app shows now, or one of their recovery codes (FORBIDDEN on `stepUp.code` when missing or wrong).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "password",
            "description": "The password they sign in with (FORBIDDEN on `stepUp.password` when wrong; five wrong ones in 15 minutes: RATE_LIMIT_EXCEEDED).",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "Subscription",
        "description": "Live events over graphql-sse at /graphql/stream: the same committed events the webhooks carry (the same ids), from whichever instance committed them. Each has a position; pass the last one as `after` to resume without a gap (7 days back by default).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "paymentEvents",
            "description": "Payment events as they commit (captured, failed, cancelled): a merchant its own, the operator every merchant's or one's (no REST twin: the webhooks carry the same events). Errors: UNAUTHORIZED, FORBIDDEN when a merchant names another merchant, VALIDATION_FAILED for an unknown or non-payment type or an unusable `after`. A stream ends with one last error result, then completes: FORBIDDEN the moment the key that opened it is revoked, regenerated or expires (on any instance); RATE_LIMIT_EXCEEDED when its reader falls more than 1,000 events behind (subscribe again with `after`: the position of the last event received).",
            "args": [
              {
                "name": "after",
                "description": "Resume: the `position` of the last event received. The stream first replays, in order, every stored event after it that this subscription lets through, then goes on live, with no gap and no duplicate. Errors: VALIDATION_FAILED for a position not given out by this service, or older than the replay window (7 days by default).",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "A merchant may only name itself (FORBIDDEN otherwise); the operator any merchant, or none for all.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "types",
                "description": "Only these event types (absent or empty: all of the stream's kind).",
                "type": {
                  "kind": "LIST",
                  "name": null,
                  "ofType": {
                    "name": null,
                    "kind": "NON_NULL",
                    "ofType": {
                      "name": "String",
                      "kind": "SCALAR",
                      "ofType": null
                    }
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PaymentEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "payoutEvents",
            "description": "Payout events as they commit: a merchant its own, the operator every merchant's or one's (no REST twin: the webhooks carry the same events; CLI `zarpay events tail`). Errors: UNAUTHORIZED, FORBIDDEN when a merchant names another merchant, VALIDATION_FAILED for an unknown or non-payout type or an unusable `after`. A stream ends with one last error result, then completes: FORBIDDEN the moment the key that opened it is revoked, regenerated or expires (on any instance); RATE_LIMIT_EXCEEDED when its reader falls more than 1,000 events behind (subscribe again with `after`: the position of the last event received).",
            "args": [
              {
                "name": "after",
                "description": "Resume: the `position` of the last event received. The stream first replays, in order, every stored event after it that this subscription lets through, then goes on live, with no gap and no duplicate. Errors: VALIDATION_FAILED for a position not given out by this service, or older than the replay window (7 days by default).",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "merchantId",
                "description": "A merchant may only name itself (FORBIDDEN otherwise); the operator any merchant, or none for all.",
                "type": {
                  "kind": "SCALAR",
                  "name": "UUID",
                  "ofType": null
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              },
              {
                "name": "types",
                "description": "Only these event types (absent or empty: all of the stream's kind).",
                "type": {
                  "kind": "LIST",
                  "name": null,
                  "ofType": {
                    "name": null,
                    "kind": "NON_NULL",
                    "ofType": {
                      "name": "String",
                      "kind": "SCALAR",
                      "ofType": null
                    }
                  }
                },
                "defaultValue": null,
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "PayoutEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "SCALAR",
        "name": "UUID",
        "description": "An id of a payment, payout, merchant or event: a UUID, the same as in the REST API.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "UnreadableSealedValues",
        "description": "Sealed values of one kind that will not open under the data keys (found by a view or the rotation).",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "count",
            "description": "How many.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "kind",
            "description": "What they are.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "SealedValueKind",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "UpdateWebhookUrlPayload",
        "description": "The merchant after the change.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "merchant",
            "description": "The merchant.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Merchant",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "WebhookAttempt",
        "description": "One attempt of a delivery.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "attempt",
            "description": "1 for the first try, up to 5.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "attemptedAt",
            "description": "When it was made.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "durationMs",
            "description": "How long it took.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "error",
            "description": "Why it failed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "statusCode",
            "description": "The receiver's HTTP status; null when no answer came (refused, timed out).",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "succeeded",
            "description": "Whether the receiver answered 2xx in time.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "WebhookDelivery",
        "description": "One delivery of an event to one URL, with its attempts. A redelivery is a new delivery.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "attemptLog",
            "description": "Every attempt, in order.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WebhookAttempt",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "attempts",
            "description": "Attempts made so far.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "completedAt",
            "description": "When it succeeded or finally failed.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "createdAt",
            "description": "When the delivery was queued.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "eventId",
            "description": "The event delivered (its webhook-id).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "eventType",
            "description": "The event's type.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The delivery id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "lastError",
            "description": "The last attempt's error.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "lastStatusCode",
            "description": "The last attempt's HTTP status.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "merchantId",
            "description": "Whose event.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "nextAttemptAt",
            "description": "When the next attempt is due, while pending.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Where the delivery is.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookDeliveryStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "url",
            "description": "Where it is delivered.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "WebhookDeliveryPayload",
        "description": "A new delivery.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "delivery",
            "description": "The delivery.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookDelivery",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "WebhookDeliveryStatus",
        "description": "Where a webhook delivery is.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "FAILED",
            "description": "Every attempt failed; the operator can redeliver the event.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "PENDING",
            "description": "To be attempted, or retried at nextAttemptAt.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SUCCEEDED",
            "description": "The receiver answered 2xx.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "WebhookSecret",
        "description": "A webhook signing secret's metadata. The secret itself is only in the answer that created it.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "createdAt",
            "description": "When it was created.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "id",
            "description": "The secret's record id.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "UUID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "kid",
            "description": "Its public identifier (`whk_…`).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "rotatingUntil",
            "description": "Until when a rotated-out secret still signs.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "secret",
            "description": "The `whsec_` secret: only in createWebhookSecret and rotateWebhookSecret answers, null everywhere else.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "status",
            "description": "Whether it signs.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookSecretStatus",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "WebhookSecretPayload",
        "description": "A new signing secret.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "rotatingKid",
            "description": "The secret now rotating out (rotate only).",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "rotatingUntil",
            "description": "When it stops signing (rotate only).",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "webhookSecret",
            "description": "The new active secret, with the secret itself (shown once).",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "WebhookSecret",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "WebhookSecretStatus",
        "description": "Whether a webhook secret signs deliveries (spec \"Webhook secret states\").",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "ACTIVE",
            "description": "Signs every delivery.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "DISABLED",
            "description": "Signs nothing any more.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ROTATING",
            "description": "Rotated out; still signs (second signature) until rotatingUntil.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__Schema",
        "description": "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "types",
            "description": "A list of all types supported by this server.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "__Type",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "queryType",
            "description": "The type that query operations will be rooted at.",
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "__Type",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "mutationType",
            "description": "If this server supports mutation, the type that mutation operations will be rooted at.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "__Type",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "subscriptionType",
            "description": "If this server support subscription, the type that subscription operations will be rooted at.",
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "__Type",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "directives",
            "description": "A list of all directives supported by this server.",
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "NON_NULL",
                  "name": null,
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "__Directive",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__Type",
        "description": "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "kind",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "__TypeKind",
                "kind": "ENUM",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "name",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "specifiedByURL",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "fields",
            "description": null,
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "__Field",
                  "kind": "OBJECT",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "interfaces",
            "description": null,
            "args": [],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "__Type",
                  "kind": "OBJECT",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "possibleTypes",
            "description": null,
            "args": [],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "__Type",
                  "kind": "OBJECT",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "enumValues",
            "description": null,
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "__EnumValue",
                  "kind": "OBJECT",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "inputFields",
            "description": null,
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "LIST",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "NON_NULL",
                "ofType": {
                  "name": "__InputValue",
                  "kind": "OBJECT",
                  "ofType": null
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ofType",
            "description": null,
            "args": [],
            "type": {
              "kind": "OBJECT",
              "name": "__Type",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isOneOf",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "Boolean",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "__TypeKind",
        "description": "An enum describing what kind of type a given `__Type` is.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "SCALAR",
            "description": "Indicates this type is a scalar.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "OBJECT",
            "description": "Indicates this type is an object. `fields` and `interfaces` are valid fields.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INTERFACE",
            "description": "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "UNION",
            "description": "Indicates this type is a union. `possibleTypes` is a valid field.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ENUM",
            "description": "Indicates this type is an enum. `enumValues` is a valid field.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INPUT_OBJECT",
            "description": "Indicates this type is an input object. `inputFields` is a valid field.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "LIST",
            "description": "Indicates this type is a list. `ofType` is a valid field.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "NON_NULL",
            "description": "Indicates this type is a non-null. `ofType` is a valid field.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__Field",
        "description": "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "name",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "args",
            "description": null,
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "__InputValue",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "__Type",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isDeprecated",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "deprecationReason",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__InputValue",
        "description": "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "name",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "type",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "__Type",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "defaultValue",
            "description": "A GraphQL-formatted string representing the default value for this input value.",
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isDeprecated",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "deprecationReason",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__EnumValue",
        "description": "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "name",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isDeprecated",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "deprecationReason",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "OBJECT",
        "name": "__Directive",
        "description": "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": [
          {
            "name": "name",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "description",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isRepeatable",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "locations",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "__DirectiveLocation",
                    "kind": "ENUM",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "args",
            "description": null,
            "args": [
              {
                "name": "includeDeprecated",
                "description": null,
                "type": {
                  "kind": "SCALAR",
                  "name": "Boolean",
                  "ofType": null
                },
                "defaultValue": "false",
                "isDeprecated": false,
                "deprecationReason": null
              }
            ],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": null,
                "kind": "LIST",
                "ofType": {
                  "name": null,
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "__InputValue",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "isDeprecated",
            "description": null,
            "args": [],
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "deprecationReason",
            "description": null,
            "args": [],
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "inputFields": null,
        "interfaces": [],
        "enumValues": null,
        "possibleTypes": null
      },
      {
        "kind": "ENUM",
        "name": "__DirectiveLocation",
        "description": "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
        "specifiedByURL": null,
        "isOneOf": null,
        "fields": null,
        "inputFields": null,
        "interfaces": null,
        "enumValues": [
          {
            "name": "QUERY",
            "description": "Location adjacent to a query operation.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "MUTATION",
            "description": "Location adjacent to a mutation operation.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SUBSCRIPTION",
            "description": "Location adjacent to a subscription operation.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FIELD",
            "description": "Location adjacent to a field.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FRAGMENT_DEFINITION",
            "description": "Location adjacent to a fragment definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FRAGMENT_SPREAD",
            "description": "Location adjacent to a fragment spread.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INLINE_FRAGMENT",
            "description": "Location adjacent to an inline fragment.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "VARIABLE_DEFINITION",
            "description": "Location adjacent to a variable definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SCHEMA",
            "description": "Location adjacent to a schema definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "SCALAR",
            "description": "Location adjacent to a scalar definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "OBJECT",
            "description": "Location adjacent to an object type definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "FIELD_DEFINITION",
            "description": "Location adjacent to a field definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ARGUMENT_DEFINITION",
            "description": "Location adjacent to an argument definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INTERFACE",
            "description": "Location adjacent to an interface definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "UNION",
            "description": "Location adjacent to a union definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ENUM",
            "description": "Location adjacent to an enum definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "ENUM_VALUE",
            "description": "Location adjacent to an enum value definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INPUT_OBJECT",
            "description": "Location adjacent to an input object type definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "INPUT_FIELD_DEFINITION",
            "description": "Location adjacent to an input object field definition.",
            "isDeprecated": false,
            "deprecationReason": null
          },
          {
            "name": "DIRECTIVE_DEFINITION",
            "description": "Location adjacent to a directive definition.",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ],
        "possibleTypes": null
      }
    ],
    "directives": [
      {
        "name": "include",
        "description": "Directs the executor to include this field or fragment only when the `if` argument is true.",
        "isRepeatable": false,
        "isDeprecated": false,
        "deprecationReason": null,
        "locations": [
          "FIELD",
          "FRAGMENT_SPREAD",
          "INLINE_FRAGMENT"
        ],
        "args": [
          {
            "name": "if",
            "description": "Included when true.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ]
      },
      {
        "name": "skip",
        "description": "Directs the executor to skip this field or fragment when the `if` argument is true.",
        "isRepeatable": false,
        "isDeprecated": false,
        "deprecationReason": null,
        "locations": [
          "FIELD",
          "FRAGMENT_SPREAD",
          "INLINE_FRAGMENT"
        ],
        "args": [
          {
            "name": "if",
            "description": "Skipped when true.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ]
      },
      {
        "name": "deprecated",
        "description": "Marks an element of a GraphQL schema as no longer supported.",
        "isRepeatable": false,
        "isDeprecated": false,
        "deprecationReason": null,
        "locations": [
          "FIELD_DEFINITION",
          "ARGUMENT_DEFINITION",
          "INPUT_FIELD_DEFINITION",
          "ENUM_VALUE",
          "DIRECTIVE_DEFINITION"
        ],
        "args": [
          {
            "name": "reason",
            "description": "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/).",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "defaultValue": "\"No longer supported\"",
            "isDeprecated": false,
            "deprecationReason": null
          }
        ]
      },
      {
        "name": "specifiedBy",
        "description": "Exposes a URL that specifies the behavior of this scalar.",
        "isRepeatable": false,
        "isDeprecated": false,
        "deprecationReason": null,
        "locations": [
          "SCALAR"
        ],
        "args": [
          {
            "name": "url",
            "description": "The URL that specifies the behavior of this scalar.",
            "type": {
              "kind": "NON_NULL",
              "name": null,
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "defaultValue": null,
            "isDeprecated": false,
            "deprecationReason": null
          }
        ]
      },
      {
        "name": "oneOf",
        "description": "Indicates exactly one field must be supplied and this field must not be `null`.",
        "isRepeatable": false,
        "isDeprecated": false,
        "deprecationReason": null,
        "locations": [
          "INPUT_OBJECT"
        ],
        "args": []
      }
    ]
  }
};

import * as gqlTada from 'gql.tada';

declare module 'gql.tada' {
  interface setupSchema {
    introspection: introspection
  }
}