// Chat messages a bank's customers write, labelled with the request and the details they name:
// paraphrases, typos, missing details, amounts in words and in other currencies, payees and
// relations, follow-up answers and commands. This is the development set: the patterns of
// lambdas/agents/banking/nlu.ts were corrected against it (six of its first 46 verdicts were wrong), so
// its score says nothing about unseen messages; a held-out set, written apart, measures that.
import type { BankingIntent, ChatCommand, Slots } from "../../lambdas/agents/banking/nlu.ts";

export interface LabelledMessage {
  message: string;
  intent: BankingIntent | null;
  /** The details the message names (others must be left missing). */
  slots: Slots;
  /** A follow-up: the message answers a question of this pending request (read as its details). */
  pending?: BankingIntent;
  /** What the message says to the conversation itself; then `intent` is null and `slots` empty. */
  command?: ChatCommand;
}

export const LABELLED_MESSAGES: readonly LabelledMessage[] = [
  // Lost or stolen cards
  { message: "I lost my card", intent: "lost_stolen_card", slots: {} },
  {
    message: "i lsot my debit card yesterday",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  {
    message: "My credit card was stolen at the gym",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  {
    message: "Please block the card ending in 4821",
    intent: "lost_stolen_card",
    slots: { card: { last4: "4821" } },
  },
  { message: "can't find my visa anywhere", intent: "lost_stolen_card", slots: { card: { kind: "credit" } } },
  {
    message: "freeze my debit card ending 1190 please",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit", last4: "1190" } },
  },
  { message: "my card is missing", intent: "lost_stolen_card", slots: {} },
  { message: "someone stole my wallet with my crad in it", intent: "lost_stolen_card", slots: {} },
  { message: "I misplaced my credit card", intent: "lost_stolen_card", slots: { card: { kind: "credit" } } },
  // Fraud
  { message: "I want to report fraud", intent: "report_fraud", slots: {} },
  {
    message: "There is a charge of $89.99 at BestBuy on my debit card that I didn't make",
    intent: "report_fraud",
    slots: {
      card: { kind: "debit" },
      description: "There is a charge of $89.99 at BestBuy on my debit card that I didn't make",
    },
  },
  {
    message: "unauthorized withdrawal from my checking account last night",
    intent: "report_fraud",
    slots: {
      account: { kind: "checking" },
      description: "unauthorized withdrawal from my checking account last night",
    },
  },
  { message: "I think I was scammed", intent: "report_fraud", slots: {} },
  {
    message: "suspicious transactions on my savings I don't recognize",
    intent: "report_fraud",
    slots: {
      account: { kind: "savings" },
      description: "suspicious transactions on my savings I don't recognize",
    },
  },
  { message: "fruad on my account", intent: "report_fraud", slots: {} },
  // Opening an account
  {
    message: "I'd like to open a savings account",
    intent: "open_account",
    slots: { account_type: "savings" },
  },
  { message: "open a new checking account", intent: "open_account", slots: { account_type: "checking" } },
  { message: "Can I opne an acount?", intent: "open_account", slots: {} },
  {
    message: "how do I start a savings account with you",
    intent: "open_account",
    slots: { account_type: "savings" },
  },
  {
    message: "create a chequing account for me",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  // Balances
  { message: "What's my balance?", intent: "check_balance", slots: {} },
  { message: "check balance on checking", intent: "check_balance", slots: { account: { kind: "checking" } } },
  {
    message: "how much money do I have in savings",
    intent: "check_balance",
    slots: { account: { kind: "savings" } },
  },
  {
    message: "balnce of account ending 4821",
    intent: "check_balance",
    slots: { account: { last4: "4821" } },
  },
  { message: "show me all my balances", intent: "check_balance", slots: { account: { kind: "all" } } },
  {
    message: "what's in my checking account right now",
    intent: "check_balance",
    slots: { account: { kind: "checking" } },
  },
  // Transfers
  {
    message: "send 50 dollars to Sam",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", to: "Sam" },
  },
  {
    message: "Transfer $200 from checking to savings",
    intent: "transfer",
    slots: { amount: 20000, currency: "USD", from_account: { kind: "checking" }, to: { kind: "savings" } },
  },
  {
    message: "tranfser 1,250.50 USD to Maria Lopez from my savings",
    intent: "transfer",
    slots: { amount: 125050, currency: "USD", from_account: { kind: "savings" }, to: "Maria Lopez" },
  },
  { message: "pay John 20 bucks", intent: "transfer", slots: { amount: 2000, currency: "USD", to: "John" } },
  { message: "I want to make a transfer", intent: "transfer", slots: {} },
  {
    message: "move €75 to my savings",
    intent: "transfer",
    slots: { amount: 7500, currency: "EUR", to: { kind: "savings" } },
  },
  {
    message: "wire 3000 dollars from account ending 4821 to Acme Supplies",
    intent: "transfer",
    slots: { amount: 300000, currency: "USD", from_account: { last4: "4821" }, to: "Acme Supplies" },
  },
  // A relation is not a payee: the conversation asks which payee "mom" is.
  {
    message: "sned $15 to mom",
    intent: "transfer",
    slots: { amount: 1500, currency: "USD", to_relation: "mom" },
  },
  { message: "can you send money to Alex", intent: "transfer", slots: { to: "Alex" } },
  // No currency: the amount is kept as written, and only the currency is asked.
  {
    message: "transfer 40 from checking",
    intent: "transfer",
    slots: { amount_as_written: "40", from_account: { kind: "checking" } },
  },
  // Moved from the held-out table: it was read as $2.00, and the rules were changed because of it.
  {
    message: "transfer $2k from savings to checking",
    intent: "transfer",
    slots: { amount: 200000, currency: "USD", from_account: { kind: "savings" }, to: { kind: "checking" } },
  },
  // Added with amounts in words and other currencies, payees, relations and follow-ups.
  // Lost or stolen, in other words
  { message: "my wallet got stolen this morning", intent: "lost_stolen_card", slots: {} },
  { message: "some guy took my purse on the bus", intent: "lost_stolen_card", slots: {} },
  { message: "I can't find my card anywhere, help", intent: "lost_stolen_card", slots: {} },
  {
    message: "cant find my debit card anywhere 😩",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  {
    message: "got pickpocketed, my visa is gone",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  { message: "the atm ate my card", intent: "lost_stolen_card", slots: {} },
  {
    message: "please cancel my credit card it was stolen",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  { message: "i think i left my card at the restaurant", intent: "lost_stolen_card", slots: {} },
  { message: "block card 4321 asap", intent: "lost_stolen_card", slots: { card: { last4: "4321" } } },
  { message: "lost debit crad", intent: "lost_stolen_card", slots: { card: { kind: "debit" } } },
  { message: "my bag got stolen with all my cards in it", intent: "lost_stolen_card", slots: {} },
  { message: "stop my card", intent: "lost_stolen_card", slots: {} },
  {
    message: "its the debit one",
    pending: "lost_stolen_card",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  {
    message: "#4321",
    pending: "lost_stolen_card",
    intent: "lost_stolen_card",
    slots: { card: { last4: "4321" } },
  },
  { message: "my purse was snatched", intent: "lost_stolen_card", slots: {} },
  { message: "i was mugged", intent: "lost_stolen_card", slots: {} },
  { message: "where is my card? i cant find it", intent: "lost_stolen_card", slots: {} },
  // Fraud, in other words
  {
    message: "charges I don't recognise on my credit card",
    intent: "report_fraud",
    slots: { card: { kind: "credit" }, description: "charges I don't recognise on my credit card" },
  },
  {
    message: "theres a payment on my statement I never made",
    intent: "report_fraud",
    slots: { description: "theres a payment on my statement I never made" },
  },
  {
    message: "i think my account got hacked",
    intent: "report_fraud",
    slots: { description: "i think my account got hacked" },
  },
  {
    message: "someone used my debit card online",
    intent: "report_fraud",
    slots: { card: { kind: "debit" }, description: "someone used my debit card online" },
  },
  {
    message: "i didnt make this purchase",
    intent: "report_fraud",
    slots: { description: "i didnt make this purchase" },
  },
  {
    message: "there are 3 transactions on my checking i dont recognize",
    intent: "report_fraud",
    slots: {
      account: { kind: "checking" },
      description: "there are 3 transactions on my checking i dont recognize",
    },
  },
  {
    message: "got a weird text asking for my pin, is it a scam?",
    intent: "report_fraud",
    slots: { description: "got a weird text asking for my pin, is it a scam?" },
  },
  { message: "report fraud pls", intent: "report_fraud", slots: {} },
  {
    message: "this isnt me, someone logged into my account",
    intent: "report_fraud",
    slots: { description: "this isnt me, someone logged into my account" },
  },
  {
    message: "two charges from amazon i never made",
    pending: "report_fraud",
    intent: "report_fraud",
    slots: { description: "two charges from amazon i never made" },
  },
  {
    message: "money missing from my savings",
    intent: "report_fraud",
    slots: { account: { kind: "savings" }, description: "money missing from my savings" },
  },
  { message: "my identity was stolen", intent: "report_fraud", slots: {} },
  {
    message: "I think my card was cloned",
    intent: "report_fraud",
    slots: { description: "I think my card was cloned" },
  },
  // Opening an account, in other words
  { message: "i want to open a savings acount", intent: "open_account", slots: { account_type: "savings" } },
  {
    message: "can i get a new checking account",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  { message: "sign up for savings", intent: "open_account", slots: { account_type: "savings" } },
  { message: "id like another account", intent: "open_account", slots: {} },
  {
    message: "how do i set up a chequing account?",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  {
    message: "savings please",
    pending: "open_account",
    intent: "open_account",
    slots: { account_type: "savings" },
  },
  // Balances, in other words
  {
    message: "how much money is in my checking",
    intent: "check_balance",
    slots: { account: { kind: "checking" } },
  },
  { message: "whats my balence now", intent: "check_balance", slots: {} },
  { message: "bal on savings pls", intent: "check_balance", slots: { account: { kind: "savings" } } },
  { message: "how much do i have left", intent: "check_balance", slots: {} },
  { message: "check my savings", intent: "check_balance", slots: { account: { kind: "savings" } } },
  {
    message: "can you tell me the balance of all my accounts",
    intent: "check_balance",
    slots: { account: { kind: "all" } },
  },
  {
    message: "the savings one",
    pending: "check_balance",
    intent: "check_balance",
    slots: { account: { kind: "savings" } },
  },
  {
    message: "both of them",
    pending: "check_balance",
    intent: "check_balance",
    slots: { account: { kind: "all" } },
  },
  { message: "show my accounts", intent: "check_balance", slots: { account: { kind: "all" } } },
  // Transfers: payees, relations, amounts in words and forms, other currencies
  {
    message: "pay Bob Stone 25 bucks from my savings",
    intent: "transfer",
    slots: { amount: 2500, currency: "USD", to: "Bob Stone", from_account: { kind: "savings" } },
  },
  {
    message: "send mum $60",
    intent: "transfer",
    slots: { amount: 6000, currency: "USD", to_relation: "mum" },
  },
  {
    message: "transfer 250 to my mom",
    intent: "transfer",
    slots: { amount_as_written: "250", to_relation: "mom" },
  },
  {
    message: "send fifty bucks to sam",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", to: "Sam" },
  },
  {
    message: "send ten dollars to alex from checking please",
    intent: "transfer",
    slots: { amount: 1000, currency: "USD", to: "Alex", from_account: { kind: "checking" } },
  },
  {
    message: "transfer twenty five dollars to my sister",
    intent: "transfer",
    slots: { amount: 2500, currency: "USD", to_relation: "sister" },
  },
  {
    message: "move 50$ from savings to checking",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", from_account: { kind: "savings" }, to: { kind: "checking" } },
  },
  {
    message: "wire USD 400 to Acme Corp",
    intent: "transfer",
    slots: { amount: 40000, currency: "USD", to: "Acme Corp" },
  },
  {
    message: "send 400 usd to maria",
    intent: "transfer",
    slots: { amount: 40000, currency: "USD", to: "Maria" },
  },
  {
    message: "transfer 1.5k to savings",
    intent: "transfer",
    slots: { amount_as_written: "1500", to: { kind: "savings" } },
  },
  {
    message: "pay a hundred dollars to my landlord",
    intent: "transfer",
    slots: { amount: 10000, currency: "USD", to_relation: "landlord" },
  },
  {
    message: "send €20 to Pierre",
    intent: "transfer",
    slots: { amount: 2000, currency: "EUR", to: "Pierre" },
  },
  {
    message: "i need to send 20 euros to my brother",
    intent: "transfer",
    slots: { amount: 2000, currency: "EUR", to_relation: "brother" },
  },
  // Yen have no minor unit: ¥5000 is 5000; Kuwaiti dinars have three: KWD 1.250 is 1250 fils.
  {
    message: "send ¥5000 to Kenji",
    intent: "transfer",
    slots: { amount: 5000, currency: "JPY", to: "Kenji" },
  },
  {
    message: "transfer 5000 JPY from savings to Yuki Tanaka",
    intent: "transfer",
    slots: { amount: 5000, currency: "JPY", from_account: { kind: "savings" }, to: "Yuki Tanaka" },
  },
  {
    message: "pay KWD 1.250 to Ahmed",
    intent: "transfer",
    slots: { amount: 1250, currency: "KWD", to: "Ahmed" },
  },
  {
    message: "sned 30 dollers to jake",
    intent: "transfer",
    slots: { amount: 3000, currency: "USD", to: "Jake" },
  },
  {
    message: "venmo sarah 15 bucks",
    intent: "transfer",
    slots: { amount: 1500, currency: "USD", to: "Sarah" },
  },
  {
    message: "send £30 to my dad from checking",
    intent: "transfer",
    slots: { amount: 3000, currency: "GBP", to_relation: "dad", from_account: { kind: "checking" } },
  },
  {
    message: "can i transfer 2 grand from savings to checking",
    intent: "transfer",
    slots: { amount_as_written: "2000", from_account: { kind: "savings" }, to: { kind: "checking" } },
  },
  {
    message: "pay my brother back 40 dollars",
    intent: "transfer",
    slots: { amount: 4000, currency: "USD", to_relation: "brother" },
  },
  {
    message: "transfer 300 from 4821 to savings",
    intent: "transfer",
    slots: { amount_as_written: "300", from_account: { last4: "4821" }, to: { kind: "savings" } },
  },
  { message: "pay sam 12.50", intent: "transfer", slots: { amount_as_written: "12.5", to: "Sam" } },
  {
    message: "send $2,500 to Acme Supplies on friday",
    intent: "transfer",
    slots: { amount: 250000, currency: "USD", to: "Acme Supplies" },
  },
  {
    message: "e-transfer $40 to jess",
    intent: "transfer",
    slots: { amount: 4000, currency: "USD", to: "Jess" },
  },
  {
    message: "I'd like to send money to my girlfriend",
    intent: "transfer",
    slots: { to_relation: "girlfriend" },
  },
  {
    message: "give dad 20 bucks from my savings",
    intent: "transfer",
    slots: { amount: 2000, currency: "USD", to_relation: "dad", from_account: { kind: "savings" } },
  },
  { message: "Sam Lee", pending: "transfer", intent: "transfer", slots: { to: "Sam Lee" } },
  {
    message: "out of my checking",
    pending: "transfer",
    intent: "transfer",
    slots: { from_account: { kind: "checking" } },
  },
  {
    message: "$80 please",
    pending: "transfer",
    intent: "transfer",
    slots: { amount: 8000, currency: "USD" },
  },
  { message: "in euros", pending: "transfer", intent: "transfer", slots: { currency: "EUR" } },
  { message: "my mother", pending: "transfer", intent: "transfer", slots: { to_relation: "mother" } },
  {
    message: "please send my friend Tom $30",
    intent: "transfer",
    slots: { amount: 3000, currency: "USD", to: "Tom" },
  },
  {
    message: "send 25 bucks to j. smith",
    intent: "transfer",
    slots: { amount: 2500, currency: "USD", to: "J. Smith" },
  },
  {
    message: "give 20 dollars to bob",
    intent: "transfer",
    slots: { amount: 2000, currency: "USD", to: "Bob" },
  },
  {
    message: "send 1000 won to Min-jun",
    intent: "transfer",
    slots: { amount: 1000, currency: "KRW", to: "Min-Jun" },
  },
  {
    message: "transfer 20,50 € to Anna",
    intent: "transfer",
    slots: { amount: 2050, currency: "EUR", to: "Anna" },
  },
  {
    message: "send 20 to my mother-in-law",
    intent: "transfer",
    slots: { amount_as_written: "20", to_relation: "mother-in-law" },
  },
  // A "no" or a command answering "Who should receive it?" is never a payee.
  { message: "nope sorry", pending: "transfer", intent: "transfer", slots: {} },
  // Commands, first word or not
  { message: "ugh forget it, dont send anything", intent: null, slots: {}, command: "cancel" },
  { message: "pls cancel that", intent: null, slots: {}, command: "cancel" },
  { message: "hold on hold on, stop", intent: null, slots: {}, command: "cancel" },
  { message: "nvm then", intent: null, slots: {}, command: "cancel" },
  { message: "no wait cancel the transfer", intent: null, slots: {}, command: "cancel" },
  { message: "i've changed my mind", intent: null, slots: {}, command: "cancel" },
  { message: "don't send it yet", intent: null, slots: {}, command: "cancel" },
  { message: "STOP!!", intent: null, slots: {}, command: "cancel" },
  { message: "cancel it", pending: "transfer", intent: null, slots: {}, command: "cancel" },
  { message: "stop the transfer to bob", intent: null, slots: {}, command: "cancel" },
  { message: "lets start over pls", intent: null, slots: {}, command: "reset" },
  { message: "can we start again", intent: null, slots: {}, command: "reset" },
  { message: "something else actually", intent: null, slots: {}, command: "new_request" },
  { message: "i have another question for you", intent: null, slots: {}, command: "new_request" },
  // A new request inside a sentence is that request, not a command
  {
    message: "never mind that, whats my savings balance",
    intent: "check_balance",
    slots: { account: { kind: "savings" } },
  },
  { message: "forget the transfer, i lost my card", intent: "lost_stolen_card", slots: {} },
  { message: "don't transfer anything, just check my balance", intent: "check_balance", slots: {} },
  { message: "how do I cancel a payment?", intent: null, slots: {} },
  // Not one of the five
  { message: "good morning!", intent: null, slots: {} },
  { message: "whats the routing number", intent: null, slots: {} },
  { message: "thank you so much 🙏", intent: null, slots: {} },
  { message: "ok cool", intent: null, slots: {} },
  { message: "can i change my address", intent: null, slots: {} },
  { message: "what's the exchange rate for euros", intent: null, slots: {} },
  { message: "hello", intent: null, slots: {} },
  { message: "what are your opening hours?", intent: null, slots: {} },
  { message: "thanks, that's all", intent: null, slots: {} },
  { message: "what is the interest rate on mortgages", intent: null, slots: {} },
  { message: "can I talk to a human", intent: null, slots: {} },
];
