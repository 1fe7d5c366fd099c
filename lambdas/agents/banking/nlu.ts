// The banking assistant's offline understanding of a chat message: which of the five requests it
// is (intent) and the details it names (slots), what it says to the conversation itself (a
// command) and how it answers a confirmation, by patterns rather than a model, so the assistant
// runs with no LLM at all. Tolerant of paraphrase and common typos ("lsot my card", "tranfser");
// what it cannot tell it leaves missing, and the conversation asks for it.
import { findCurrency, findMoney, toMinorUnits } from "./money.ts";

export { findMoney, formatMoney, minorUnits } from "./money.ts";

export const BANKING_INTENTS = [
  "lost_stolen_card",
  "report_fraud",
  "open_account",
  "check_balance",
  "transfer",
] as const;
export type BankingIntent = (typeof BANKING_INTENTS)[number];

export type SlotName =
  | "card"
  | "account"
  | "account_type"
  | "amount"
  | "currency"
  | "from_account"
  | "to"
  | "description";

/** What each request needs before it can run; the assistant asks for the missing ones. */
export const REQUIRED_SLOTS: Readonly<Record<BankingIntent, readonly SlotName[]>> = {
  lost_stolen_card: ["card"],
  report_fraud: ["description"],
  open_account: ["account_type"],
  check_balance: ["account"],
  transfer: ["amount", "currency", "from_account", "to"],
};

/**
 * An account or card as the customer names it: a kind ("checking", "savings", "debit", "credit"),
 * the last four digits, or both. Resolved against the customer's own accounts by the tools.
 */
export interface ProductReference {
  kind?: string;
  last4?: string;
}

export interface Slots {
  card?: ProductReference;
  account?: ProductReference;
  account_type?: "checking" | "savings";
  /** Integer minor units of `currency` (cents, yen, fils): money is never a float. */
  amount?: number;
  /** ISO 4217. */
  currency?: string;
  /**
   * The amount as the customer wrote it, in major units ("200", "12.5"), while its currency is not
   * known ("transfer 200 to my mom") or when it has more decimals than its currency has. It counts
   * as the amount: only the currency is asked, and `withResolvedAmount` turns it into `amount` in
   * that currency's minor units, so the amount confirmed is the amount moved.
   */
  amount_as_written?: string;
  from_account?: ProductReference;
  /** A payee's name, or one of the customer's own accounts. */
  to?: string | ProductReference;
  /**
   * Who the money is for when the customer named a relation ("mom", "my brother") rather than a
   * payee: `to` stays missing and the conversation asks which payee that is.
   */
  to_relation?: string;
  description?: string;
}

export interface Understanding {
  intent: BankingIntent | null;
  slots: Slots;
  missing: SlotName[];
}

export type ChatCommand = "cancel" | "reset" | "new_request";

// ---------------------------------------------------------------- intents

// Typos tolerated where customers make them: one letter dropped, doubled or swapped.
const CARD_WORDS = `card|cards|crad|cadr|debit|credit|visa|mastercard|amex|wallet|purse|handbag|bag`;
const LOSS_WORDS = `lost|lsot|loast|lose|losing|misplaced|stolen|stole|stolne|steal|took|taken|swiped|nicked|pinched|snatched|grabbed|pickpocketed|robbed|mugged|dropped|can'?t find|cannot find|can not find|couldn'?t find|cant find|missing|block|blcok|stop|freeze|frozen|deactivate|disable|cancel|ate|eaten|swallowed|kept`;
const INTENT_PATTERNS: ReadonlyArray<readonly [BankingIntent, RegExp]> = [
  [
    "report_fraud",
    /\b(fraud\w*|fruad\w*|frawd\w*|scam\w*|unauthori[sz]ed|not authori[sz]ed|didn'?t (make|authori[sz]e|do|buy|order|spend)|did not (make|authori[sz]e|do|buy|order|spend)|never (made|authori[sz]ed|did|bought|ordered|spent|signed)|(don'?t|do not|didn'?t|did not|can'?t|cannot) recogni[sz]e|unrecogni[sz]ed|not recogni[sz]ed|not me|wasn'?t me|was not me|isn'?t mine|not mine|suspicious|hack(ed|er|ers)?|compromised|phish\w*|identity theft|stole my identity|someone (used|is using|has been using|accessed|logged|got into|took money|withdrew|charged|spent|opened)|(unknown|strange|weird|odd|random) (charges?|transactions?|payments?|purchases?|withdrawals?)|skimm(ed|er)|cloned|dispute|money (is |went |has gone |has been )?(missing|gone|taken|disappeared)|identity (was |got |has been )?stolen)\b/i,
  ],
  [
    "lost_stolen_card",
    new RegExp(
      String.raw`\b(${LOSS_WORDS})\b[^.?!]*\b(${CARD_WORDS})\b|\b(${CARD_WORDS})\b[^.?!]*\b(lost|stolen|missing|gone|taken|snatched|block(ed)?|freeze|frozen)\b|\bleft my (${CARD_WORDS})\b|\b(${CARD_WORDS})\b.{0,40}\b(can'?t|cannot|cant) find (it|them)\b|\b(i was|i got|i've been|i have been|been|got) (mugged|robbed|pickpocketed)\b`,
      "i",
    ),
  ],
  [
    "transfer",
    /\b(transfer\w*|tranfser\w*|trasnfer\w*|tranfer\w*|trasfer\w*|transfr\w*|e-?transfer|send(ing|s)?\b(?! (me|us)\b)|sned|pay(ing|s)?\b|wire\b|move\b|zelle|venmo|reimburse|give (\w+ )?(\$|€|£|\d))/i,
  ],
  [
    "check_balance",
    /\b(balances?|balence|ballance|balnce|blance|balanace|balanse|bal)\b|\bhow much (money |cash |funds )?(do i|have i|i have|i got|is (there )?(in|on|left)|is in|is left|left|remaining|have i got|can i spend|is available)|\bwhat'?s (left )?in my\b|\bwhat (do|have) i (have|got) in\b|\bfunds available\b|\bavailable (funds|balance)\b|\bmoney (do i have|left|is left|i have)\b|\bcheck (on )?(my )?(checking|savings|account)\b|\bshow (me )?(all )?my accounts\b/i,
  ],
  [
    "open_account",
    /\b(open|opne|oepn|opening|start|create|set ?up|sign up|apply)\b[^.?!]*\b(accounts?|acount|accnt|acct|checking|chequing|savings?)\b|\b(new|another|second) (\w+ )?(accounts?|acount|acct|checking|chequing|savings?)\b|\b(get|want|need|like|have|make|add) (a|an|another|one more) (new |second |separate )?(\w+ )?(account|acount|acct|checking|chequing|savings?)\b/i,
  ],
];

/** The request a message makes, or null when it makes none of the five. */
export function detectIntent(message: string): BankingIntent | null {
  // "don't send anything, just check my balance": a request taken back is not the one made.
  const text = withoutCommands(normalize(message));
  for (const [intent, pattern] of INTENT_PATTERNS) if (pattern.test(text)) return intent;
  return null;
}

// ---------------------------------------------------------------- commands

// A clause ends at punctuation, at the message's end, or where a filler or "and" follows.
const CLAUSE_END = String.raw`(?=\s*(?:[.,!?;:]|$|\b(?:and|but|please|pls|plz|now|right now|immediately|asap|thanks|thank you|then|for now|actually|instead)\b))`;
// What a cancel verb may take as its object and still be about the conversation's request, not a card
// or an account ("cancel my card" is a request to block it).
const REQUEST_NOUNS = `transfer|transaction|payment|request|order|operation|process|conversation|chat|money|whole thing|last one|last request|thing`;
const CANCEL_PATTERNS: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(cancel|cancle|canel|stop|abort|scrap|scratch|drop|undo|halt|call off)\b(\s+(it|that|this|everything|all|all of it|that one|this one))?${CLAUSE_END}`,
    "i",
  ),
  new RegExp(
    String.raw`\b(cancel|cancle|canel|stop|abort|scrap|scratch|drop|undo|halt|call off)\s+((the |my |that |this |your )(${REQUEST_NOUNS})|transfer|request)\b`,
    "i",
  ),
  new RegExp(`\\bforget (about )?(the |my |that |this )(${REQUEST_NOUNS})\\b`, "i"),
  /\b(never ?mind|nvm|forget (it|that|this|about it|about that|everything)|(i'?ve |i have )?changed my mind|change of plans?|not anymore|no longer)\b/i,
  /\b(don'?t|dont|do not|no need to|not) (do|send|transfer|pay|move|make|wire|process) (it|that|this|anything|any ?thing|the (money|transfer|payment)|a thing)\b/i,
  /\bi (don'?t|dont|do not) want (it|that|this|to (do|send|transfer|pay|move) (it|that|this|anything))( anymore| any more)?\b/i,
];
const RESET_PATTERNS: readonly RegExp[] = [
  /\b(start (over|again|afresh|from (scratch|the (beginning|top)))|begin again|from the top|let'?s start over)\b/i,
  new RegExp(
    String.raw`\b(reset|restart|clear)\b(\s+(it|this|everything|all|the (chat|conversation)|the whole thing))?${CLAUSE_END}`,
    "i",
  ),
];
const NEW_REQUEST_PATTERNS: readonly RegExp[] = [
  /\b(new request|something else|some ?thing different|another (thing|request|question)|different (request|question|thing)|other (thing|question)|one more thing)\b/i,
];

/**
 * "cancel", "start over", "new request": what the customer says to the conversation itself, first
 * word or not ("actually forget it, dont send anything", "hold on, stop"). A message that also
 * makes a new request ("never mind, what's my balance") is that request, not a command: the new
 * request supersedes the old one anyway. "cancel my card" and "stop my card" are requests.
 */
export function detectCommand(message: string): ChatCommand | null {
  const text = normalize(message);
  const commands: ReadonlyArray<readonly [ChatCommand, readonly RegExp[]]> = [
    ["reset", RESET_PATTERNS],
    ["cancel", CANCEL_PATTERNS],
    ["new_request", NEW_REQUEST_PATTERNS],
  ];
  for (const [command, patterns] of commands) {
    if (!patterns.some((pattern) => pattern.test(text))) continue;
    // What is left once every command phrase is taken out: a request there is the message's point.
    return detectIntent(text) ? null : command;
  }
  return null;
}

const COMMAND_PATTERNS: readonly RegExp[] = [
  ...RESET_PATTERNS,
  ...CANCEL_PATTERNS,
  ...NEW_REQUEST_PATTERNS,
].map((pattern) => new RegExp(pattern.source, "gi"));

function withoutCommands(text: string): string {
  return COMMAND_PATTERNS.reduce((rest, pattern) => rest.replace(pattern, " "), text);
}

// ---------------------------------------------------------------- confirmation

export type ConfirmationReading = { kind: "yes" } | { kind: "no" } | { kind: "other" };

type ConfirmationWord = "yes" | "ok" | "no" | "wait" | "filler";
// Longest first: "don't send it" is a refusal before "send it" is assent.
const CONFIRMATION_PHRASES: ReadonlyArray<readonly [ConfirmationWord, RegExp]> = [
  [
    "no",
    /^(no thanks?|no thank you|not now|not yet|no way|no no|i'?ve changed my mind|i changed my mind|changed my mind|never ?mind|forget it|don'?t (do|send|transfer|pay) (it|that|this|anything|the money|the transfer)|do not (do|send|transfer|pay) (it|that|this|anything|the money|the transfer)|don'?t|dont|do not|(cancel|stop|abort) (it|that|this|the transfer|the payment)|n+o+|n+o+p+e*|nah+|naw|nay|n|negative|cancel+|cancle|stop+|abort|decline[d]?|reject(ed)?|nvm|i'?m good|im good|i'?ll pass|👎|❌|🚫|✋|🙅)$/u,
  ],
  [
    "yes",
    /^(yes please|yes sir|sure thing|of course|go ahead|go for it|please do|please proceed|do it|send it|send the money|send them|transfer it|pay (it|them)|i confirm|i'?m sure|i am sure|that'?s (right|correct|fine)|that is (right|correct|fine)|sounds good|looks good|all good|y+e+s+|y+e+a+h*|y+e+h+|y+a+h*|y+e+p+|y+u+p+|y+a+s+|y+|yea|yeh|ya|sure+|shure|confirm(ed)?|cofirm|confrim|correct|right|absolutely|definitely|certainly|affirmative|proceed|approve[d]?|send|go|perfect|fine|great|agreed|👍|👍🏻|👍🏼|👍🏽|👍🏾|👍🏿|✅|👌|✔️?|🙏)$/u,
  ],
  ["ok", /^(o+k+a*y*|okey|oki|okie|k+|alright|all right|aight|cool)$/u],
  ["wait", /^(wait|hold on|hang on|one sec(ond)?|just a (sec(ond)?|minute|moment)|hmm+|um+|uh+|erm)$/u],
  [
    "filler",
    /^(please|pls|plz|thanks|thank you|thx|ty|now|then|and|actually|oh|well|so|just|sorry|mate|dude|again|it|that|i|👌🏻|🙂|😊|😀|😄|🙏🏻)$/u,
  ],
];

/**
 * The customer's answer to "Please confirm: send X from Y to Z. Reply yes or no": "yes" only when
 * the whole message is clear assent ("yes please", "yep, send it", "ok go ahead", "👍"); "no" when
 * it refuses ("no thanks", "don't send it", "cancel", "ok stop", "hold on, stop"); "other" for
 * anything else: mixed ("yes no wait"), hesitant ("wait"), a question, a new amount or detail ("ok
 * wait, make it 20 dollars instead") or a new request. Only "yes" may move money.
 */
export function readConfirmation(message: string): ConfirmationReading {
  const text = normalize(message).toLowerCase().trim();
  if (!text || text.includes("?")) return { kind: "other" };
  const words = text
    .replace(/[.,!;:…~"()*\-–—]+/g, " ")
    .replace(/(\p{Extended_Pictographic}\uFE0F?(?:\p{Emoji_Modifier})?)/gu, " $1 ")
    .split(/\s+/)
    .filter(Boolean);
  const seen = new Set<ConfirmationWord>();
  let i = 0;
  while (i < words.length) {
    let matched = 0;
    let kind: ConfirmationWord | undefined;
    // The longest phrase (up to five words) that starts here.
    for (let length = Math.min(5, words.length - i); length > 0 && !kind; length--) {
      const phrase = words.slice(i, i + length).join(" ");
      const found = CONFIRMATION_PHRASES.find(([, pattern]) => pattern.test(phrase));
      if (found) {
        kind = found[0];
        matched = length;
      }
    }
    if (!kind) return { kind: "other" };
    seen.add(kind);
    i += matched;
  }
  const refuses = seen.has("no");
  if (refuses && seen.has("yes")) return { kind: "other" };
  if (refuses) return { kind: "no" };
  if (seen.has("wait")) return { kind: "other" };
  if (seen.has("yes") || seen.has("ok")) return { kind: "yes" };
  return { kind: "other" };
}

/** A yes, a no, or a command: words that answer the conversation, never a name or a description. */
export function isConversationWord(message: string): boolean {
  return readConfirmation(message).kind !== "other" || detectCommand(message) !== null;
}

// ---------------------------------------------------------------- slots

/** Intent and slots of a message; with `intent`, the message is read as details of that request. */
export function understand(
  message: string,
  intent: BankingIntent | null = detectIntent(message),
): Understanding {
  const text = normalize(message);
  const slots = intent ? extractSlots(intent, text) : {};
  return { intent, slots, missing: intent ? missingSlots(intent, slots) : [] };
}

/**
 * What is still missing. An amount written without its currency counts as given (only the
 * currency is asked); one that does not fit its currency's decimals is asked again.
 */
export function missingSlots(intent: BankingIntent, slots: Slots): SlotName[] {
  const resolved = withResolvedAmount(slots);
  return REQUIRED_SLOTS[intent].filter((name) =>
    name === "amount"
      ? resolved.amount === undefined &&
        (resolved.amount_as_written === undefined || resolved.currency !== undefined)
      : resolved[name] === undefined,
  );
}

/** Details named later fill what was missing; what was already known stays. */
export function mergeSlots(known: Slots, later: Slots): Slots {
  const merged: Slots = { ...later };
  for (const [name, value] of Object.entries(known) as Array<[keyof Slots, Slots[keyof Slots]]>) {
    if (value !== undefined) (merged as Record<string, unknown>)[name] = value;
  }
  return merged;
}

/**
 * The slots with an amount written without its currency turned into minor units of the currency
 * now known ("200" + JPY = 200, "200" + USD = 20000, "1.25" + KWD = 1250); unchanged otherwise.
 */
export function withResolvedAmount(slots: Slots): Slots {
  if (slots.amount !== undefined || slots.amount_as_written === undefined || !slots.currency) return slots;
  const amount = toMinorUnits(slots.amount_as_written, slots.currency);
  if (amount === undefined) return slots;
  const { amount_as_written: _written, ...rest } = slots;
  return { ...rest, amount };
}

/**
 * The details an answer to the question about `slot` gives, read with the question in mind: "my
 * savings" answering "Who should receive it?" is the savings account, "200" answering "How much?"
 * is the amount. A yes, a no or a command ("nope", "cancel") answers nothing.
 */
export function readAnswer(intent: BankingIntent, slot: SlotName, message: string): Slots {
  const text = normalize(message).trim();
  if (!text || isConversationWord(text)) return {};
  const understood = understand(text, intent).slots;
  switch (slot) {
    case "to": {
      const to = understood.to ?? accountReference(text) ?? payeeName(text);
      if (to !== undefined) return { to };
      return understood.to_relation ? { to_relation: understood.to_relation } : {};
    }
    case "description": {
      const description = understood.description ?? (text.length >= 10 ? text : undefined);
      return definedOnly({ description });
    }
    case "from_account":
      return definedOnly({ from_account: understood.from_account ?? accountReference(text) });
    case "account":
      return definedOnly({ account: understood.account ?? accountReference(text) });
    case "card":
      return definedOnly({ card: understood.card ?? cardReference(text) });
    case "currency":
      return definedOnly({ currency: understood.currency ?? findCurrency(text) });
    case "amount": {
      const money = findMoney(text, { bare: true });
      return money
        ? definedOnly({
            amount: money.amount,
            currency: money.currency,
            amount_as_written: money.amount === undefined ? money.asWritten : undefined,
          })
        : {};
    }
    case "account_type":
      return definedOnly({ account_type: understood.account_type });
  }
}

function extractSlots(intent: BankingIntent, text: string): Slots {
  switch (intent) {
    case "lost_stolen_card":
      return definedOnly({ card: cardReference(text) ?? lastFourOnly(text) });
    case "report_fraud":
      return definedOnly({
        description: fraudDescription(text),
        card: cardReference(text),
        account: accountReference(text),
      });
    case "open_account":
      return definedOnly({ account_type: accountType(text) });
    case "check_balance":
      return definedOnly({
        account:
          accountReference(text) ??
          lastFourOnly(text) ??
          (/\b(all|every|each|both)( of)?( my| the)? (accounts?|balances?)\b|\b(all|every|both) of them\b|^\s*(all|both|everything|every one)\s*[.!]?\s*$|\b(my|total) (accounts|balances)\b/i.test(
            text,
          )
            ? { kind: "all" }
            : undefined),
      });
    case "transfer":
      return transferSlots(text);
  }
}

// ---------------------------------------------------------------- transfers

const RELATIONS = `mom|mum|mommy|mummy|mother|mama|momma|ma|dad|daddy|father|papa|pa|sister|sis|brother|bro|wife|husband|hubby|spouse|partner|son|daughter|kid|kids|child|children|grandma|grandmother|granny|nana|grandpa|grandfather|grandad|granddad|aunt|auntie|aunty|uncle|cousin|niece|nephew|boyfriend|girlfriend|bf|gf|fianc[eé]e?|roommate|flatmate|housemate|landlord|landlady|friend|buddy|neighbou?r|boss|babysitter|nanny|(?:mother|father|sister|brother|son|daughter)-in-law`;
const RELATION = new RegExp(`^(?:my |our )?(${RELATIONS})(?:'s)?(?: account)?$`, "i");
// Relations customers name without "my" ("send mom $50").
const BARE_RELATION = /^(mom|mum|mommy|mummy|mama|momma|dad|daddy|papa|grandma|granny|nana|grandpa)$/i;

// Words that end a payee's name, or cannot be one.
const NOT_NAME = new Set(
  `from on for today tonight tomorrow now asap please pls plz via with using through thru out and at by as because right instead this that these those next every each back again too also it them him her me us you money cash funds fund some the a an my your our their his its immediately quickly thanks thank then so but or if when before after in into to of is was be are can could would will should i ok okay yes no not nope yeah yep sure cancel stop wait never mind forget hold rent bills invoice loan mortgage card credit debit fee fees tax taxes off down up over all what how much more less half extra hello hi hey help who why where idk dunno unsure nobody none usd eur gbp make do see know check report open get have give put take ask find block freeze talk speak go add use buy change start close keep let tell say set sign apply look top split cover order like want need account accounts checking chequing savings saving dollars dollar bucks euros euro pounds quid yen same someone somebody anyone anybody everyone everything anything nothing transfer send pay payment wire move`.split(
    " ",
  ),
);
const AMOUNT_WORDS =
  /^(?:\d|[$€£¥₩₹]|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|a|an)\b)/i;

function transferSlots(text: string): Slots {
  const money = findMoney(text, { bare: true });
  const from =
    /\b(?:from|out of|outta)\s+(?:my |the |our )?((?:account |acct )?(?:ending (?:in )?|number |#)?\*{0,4}\d{4}\b|(?:checking|chequing|savings?|cheque)\b)/i.exec(
      text,
    );
  const destination = transferDestination(text);
  // "euros", "in dollars please": a short answer that names only the currency.
  const currencyOnly = !money && text.trim().split(/\s+/).length <= 3 ? findCurrency(text) : undefined;
  return definedOnly({
    amount: money?.amount,
    currency: money?.currency ?? currencyOnly,
    amount_as_written: money && money.amount === undefined ? money.asWritten : undefined,
    from_account: from ? productReference(from[1] ?? "") : undefined,
    to: destination?.to,
    to_relation: destination?.relation,
  });
}

/**
 * Where the money goes: one of the customer's accounts ("to savings", "into 4821"), a payee ("to
 * Maria Lopez", "pay Bob Stone 20 bucks") or a relation ("to my mom", "send mum $50").
 */
function transferDestination(
  text: string,
): { to?: string | ProductReference; relation?: string } | undefined {
  // "to" as a preposition, not "to make a transfer", "to send money".
  for (const match of text.matchAll(/\b(?:to|into|in to)\s+/gi)) {
    const start = (match.index ?? 0) + match[0].length;
    const found = destinationAt(text, start, false);
    if (found) return found;
  }
  // "pay Bob Stone 20 bucks", "send mom $50": the payee right after the verb, before the amount.
  const verb =
    /\b(?:pay|send|sned|give|venmo|zelle|wire|e-?transfer|transfer|tranfser|reimburse)\s+(?:back\s+)?/i.exec(
      text,
    );
  if (verb) {
    const start = verb.index + verb[0].length;
    const found = destinationAt(text, start, true);
    if (found) return found;
  }
  // A message that is only a relation ("my mom") or a name ("Bob Stone"): the answer to "who".
  const whole = text.replace(/[.!]+$/, "").trim();
  const relation = RELATION.exec(whole);
  if (relation?.[1]) return { relation: relation[1].toLowerCase() };
  const name = whole.split(/\s+/).length <= 4 ? payeeName(whole) : undefined;
  return name ? { to: name } : undefined;
}

function destinationAt(
  text: string,
  start: number,
  beforeAmount: boolean,
): { to?: string | ProductReference; relation?: string } | undefined {
  const rest = text.slice(start);
  const account =
    /^(?:my |the |our )?(?:(?:account|acct) )?(?:ending (?:in )?|number |#)?(\*{0,4}\d{4}\b|(?:checking|chequing|savings?)\b)/i.exec(
      rest,
    );
  if (account?.[1] && !beforeAmount) return { to: productReference(account[1]) };
  const words: string[] = [];
  for (const word of rest.split(/\s+/)) {
    const bare = /^\p{L}\.$/u.test(word) ? word : word.replace(/[.,!?;:]+$/, "");
    const lower = bare.toLowerCase();
    // "J. Smith": an initial's full stop does not end the name.
    const ended = bare !== word && !/^\p{L}\.$/u.test(word);
    if (!bare || AMOUNT_WORDS.test(bare) || !/^[\p{L}][\p{L}'’.-]*$/u.test(bare)) break;
    if (NOT_NAME.has(lower) && !(words.length === 0 && (lower === "my" || lower === "our"))) break;
    words.push(bare);
    if (ended || words.length >= 4) break;
  }
  const phrase = words.join(" ");
  if (!phrase) return undefined;
  // After the verb, the name must come before the amount ("pay Bob 20"), or end the message.
  if (beforeAmount) {
    const after = rest.slice(rest.indexOf(words.at(-1) as string) + (words.at(-1) as string).length).trim();
    if (after && !AMOUNT_WORDS.test(after) && !/^(back\b|from\b|[.,!])/i.test(after)) return undefined;
  }
  const relation = RELATION.exec(phrase);
  if (relation?.[1] && (/^(my|our) /i.test(phrase) || BARE_RELATION.test(relation[1]))) {
    return { relation: relation[1].toLowerCase() };
  }
  // "my friend Tom", "my sister Ana": the name says who, the relation only how they are related.
  const named = new RegExp(`^(?:my |our )(?:${RELATIONS}) (?<name>.+)$`, "i").exec(phrase)?.groups?.name;
  const name = payeeName(named ?? phrase);
  return name ? { to: name } : undefined;
}

/**
 * A payee's name as the customer wrote it ("bob stone" → "Bob Stone"), or undefined when the
 * words are no name: a yes or no, a command, a relation ("my mom"), an account, a number.
 */
export function payeeName(message: string): string | undefined {
  const name = normalize(message)
    .trim()
    .replace(/^(to|send it to|pay|it'?s|its|it is)\s+/i, "")
    .replace(/[.!]+$/, "")
    .trim();
  if (!/^[\p{L}][\p{L} .'’-]{0,60}$/u.test(name)) return undefined;
  const words = name.toLowerCase().split(/\s+/);
  if (words.some((word) => NOT_NAME.has(word)) || RELATION.test(name) || isConversationWord(name)) {
    return undefined;
  }
  return name.replace(
    /(^|[\s'-])(\p{Ll})/gu,
    (_, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

// ---------------------------------------------------------------- references

function cardReference(text: string): ProductReference | undefined {
  const last4 = /\b(?:card|ending|ends|last (?:4|four)(?: digits)?(?: are| is)?)\D{0,12}(\d{4})\b/i.exec(
    text,
  )?.[1];
  const kind = /\b(debit|credit|visa|mastercard|amex)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind && kind !== "debit" && kind !== "credit" ? "credit" : kind, last4 });
}

function accountReference(text: string): ProductReference | undefined {
  const last4 =
    /\b(?:account|acct|ending|ends|last (?:4|four)(?: digits)?(?: are| is)?)\D{0,12}(\d{4})\b/i.exec(
      text,
    )?.[1];
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind ? canonicalKind(kind) : undefined, last4 });
}

/** A message that is only four digits ("4321", "#4321", "****4321"): the last four of a card or account. */
function lastFourOnly(text: string): ProductReference | undefined {
  const last4 = /^\s*(?:the one )?(?:ending (?:in )?|#|\*{1,4})?(\d{4})\s*[.!]?\s*$/i.exec(text)?.[1];
  return last4 ? { last4 } : undefined;
}

function productReference(text: string): ProductReference | undefined {
  const last4 = /(\d{4})\s*$/.exec(text)?.[1];
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind ? canonicalKind(kind) : undefined, last4 });
}

function accountType(text: string): "checking" | "savings" | undefined {
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  return kind ? (canonicalKind(kind) as "checking" | "savings") : undefined;
}

function canonicalKind(kind: string): string {
  return kind.startsWith("sav") ? "savings" : "checking";
}

/**
 * What happened, in the customer's words, when they said what it was (a charge, a withdrawal, a
 * login) rather than only "fraud": a fraud case needs something to investigate.
 */
function fraudDescription(text: string): string | undefined {
  const detailed =
    /\b(charges?|charged|transactions?|withdrawals?|withdrew|purchases?|bought|payments?|transfers?|log-?ins?|logged|signed in|hacked|accessed|got into|used my|using my|cloned|skimmed|phished|missing|emails?|calls?|texts?|debits?|atm)\b/i.test(
      text,
    ) || findMoney(text) !== undefined;
  return detailed ? text.trim() : undefined;
}

function normalize(message: string): string {
  return message
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ");
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
