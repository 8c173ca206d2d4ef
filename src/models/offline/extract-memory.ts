import type { UserProfile } from "../../domain/profile.js";
import { foldForMatch, normalizeText, type Language } from "../../text/index.js";
import type { ExtractMemoryInput, ExtractMemoryOutput } from "../roles.js";

/**
 * Rule-based extraction of durable, non-sensitive facts: vehicle (make, model, year), family
 * situation, products held, home (type and city). Values are built from recognised words, never
 * copied from free text, so nothing else the user wrote (ids, card or phone numbers, health
 * details, addresses) can leak into a profile. A message asking to forget something yields no
 * facts at all.
 */

// --- safety -------------------------------------------------------------------------------------
const FORGET =
  /(?<![\p{L}])(?:forget|don'?t (?:remember|store|save|keep)|do not (?:remember|store|save|keep)|delete (?:my|that|this)|فراموش|ذخیره نکن|به خاطر نسپار|یادت نماند|یادت نمونه|حذف کن|پاک کن)(?![\p{L}])/u;
// Long digit runs (national ids, card, account and phone numbers, IBANs): removed before any rule.
const SENSITIVE_NUMBER = /(?:ir\s?)?\d[\d\s-]{6,}\d/giu;
const SENSITIVE_MIN_DIGITS = 8;

function redactNumbers(text: string): string {
  return text.replace(SENSITIVE_NUMBER, (run) => ((run.match(/\d/gu)?.length ?? 0) >= SENSITIVE_MIN_DIGITS ? " " : run));
}

function word(pattern: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${pattern})(?![\\p{L}\\p{N}])`, "u");
}

// --- vehicle ------------------------------------------------------------------------------------
const EN_MAKES: Record<string, string> = {
  peugeot: "Peugeot",
  pride: "Pride",
  samand: "Samand",
  dena: "Dena",
  tiba: "Tiba",
  quick: "Quick",
  saina: "Saina",
  shahin: "Shahin",
  rana: "Rana",
  renault: "Renault",
  tondar: "Tondar",
  kia: "Kia",
  hyundai: "Hyundai",
  toyota: "Toyota",
  nissan: "Nissan",
  mazda: "Mazda",
  chery: "Chery",
  mvm: "MVM",
  haima: "Haima",
  dongfeng: "Dongfeng",
  bmw: "BMW",
  mercedes: "Mercedes",
  "mercedes-benz": "Mercedes-Benz",
  benz: "Benz",
  volkswagen: "Volkswagen",
  vw: "VW",
  honda: "Honda",
  ford: "Ford",
  tesla: "Tesla",
  zamyad: "Zamyad",
  arisan: "Arisan",
  lifan: "Lifan",
  jac: "JAC",
  brilliance: "Brilliance",
  suzuki: "Suzuki",
  chevrolet: "Chevrolet",
  audi: "Audi",
  volvo: "Volvo",
  skoda: "Skoda",
  fiat: "Fiat",
};
const FA_MAKES = [
  "پژو",
  "پراید",
  "سمند",
  "دنا",
  "تیبا",
  "کوییک",
  "ساینا",
  "شاهین",
  "رانا",
  "رنو",
  "تندر",
  "کیا",
  "هیوندای",
  "تویوتا",
  "نیسان",
  "مزدا",
  "چری",
  "ام وی ام",
  "هایما",
  "دانگ فنگ",
  "بی ام و",
  "بنز",
  "فولکس",
  "هوندا",
  "فورد",
  "تسلا",
  "زامیاد",
  "آریسان",
  "لیفان",
  "برلیانس",
  "سوزوکی",
  "شورلت",
  "آئودی",
  "ولوو",
];
const EN_MODELS = new Set(
  "pars rio cerato sportage optima corolla camry yaris prius rav4 accent elantra tucson sonata santa tiggo arrizo l90 sandero logan megane x22 x33 x55 civic accord focus golf passat plus sport 2008 3008 5008 206 207 405 pars".split(
    " ",
  ),
);
const FA_MODELS = new Set("پارس پلاس اسپرت صندوقدار هاچبک".split(" "));

const EN_OWNERSHIP = word("i drive|i'm driving|i am driving|i have|i own|i've got|i have got|i bought|i got|we have|we own|we drive|my car|my vehicle|my ride|our car");
const FA_OWNERSHIP = word("ماشینم|ماشین من|ماشین ما|خودروم|خودروی من|خودرو من|خودروی ما|اتومبیلم|اتومبیل من|دارم|داریم|میرانم|می رانم|سوار|خریدم|خریده ام");
const MOTORCYCLE_EN = word("i ride a (?:motorcycle|motorbike)|(?:i have|i own|my) (?:a )?(?:motorcycle|motorbike)");
const MOTORCYCLE_FA = word("موتورسیکلت(?:م| دارم| من)|موتور سیکلت(?:م| دارم| من)");

const YEAR = /^(?:1[34]\d\d|19[5-9]\d|20[0-4]\d)$/u;

function titleCase(text: string): string {
  return text.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

function extractVehicle(folded: string): string | undefined {
  if (MOTORCYCLE_EN.test(folded)) return "motorcycle";
  if (MOTORCYCLE_FA.test(folded)) return "موتورسیکلت";
  const tokens = folded.split(/\s+/u).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}-]+$/gu, ""));

  if (EN_OWNERSHIP.test(folded)) {
    const at = tokens.findIndex((t) => t in EN_MAKES);
    if (at >= 0) {
      const parts = [EN_MAKES[tokens[at]!]!];
      const year = tokens[at - 1];
      const model = tokens[at + 1];
      if (model !== undefined && (EN_MODELS.has(model) || /^(?:\d{2,4}|[a-z]+\d+[a-z]*)$/u.test(model)) && !YEAR.test(model)) {
        parts.push(/^\d+$/u.test(model) ? model : titleCase(model));
      }
      if (year !== undefined && YEAR.test(year)) parts.unshift(year);
      else {
        const after = tokens.slice(at + 1, at + 4).find((t) => YEAR.test(t));
        if (after !== undefined) parts.unshift(after);
      }
      return parts.join(" ");
    }
  }
  if (FA_OWNERSHIP.test(folded)) {
    for (const make of FA_MAKES) {
      const match = new RegExp(`(?<![\\p{L}])${make}(?![\\p{L}])((?:\\s+[\\p{L}\\p{N}]+){0,3})`, "u").exec(folded);
      if (match === null) continue;
      const parts = [make];
      const rest = (match[1] ?? "").trim().split(/\s+/u);
      const model = rest[0];
      if (model !== undefined && (FA_MODELS.has(model) || /^\d{2,4}$/u.test(model)) && !YEAR.test(model)) parts.push(model);
      const yearAt = rest.findIndex((t) => YEAR.test(t));
      if (yearAt >= 0 && rest[yearAt - 1] === "مدل") parts.push("مدل", rest[yearAt]!);
      return parts.join(" ");
    }
  }
  return undefined;
}

// --- family -------------------------------------------------------------------------------------
const EN_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const FA_NUMBERS: Record<string, number> = { یک: 1, یه: 1, دو: 2, سه: 3, چهار: 4, پنج: 5, شش: 6 };
const EN_COUNT_WORDS = ["", "one", "two", "three", "four", "five", "six"];
const FA_COUNT_WORDS = ["", "یک", "دو", "سه", "چهار", "پنج", "شش"];

const EN_SINGLE = word("i'm single|i am single|i'm not married|i am not married|i'm unmarried|i am unmarried");
const EN_MARRIED = word("i'm married|i am married|we're married|we are married|i got married|my wife|my husband|my spouse|my partner");
const FA_SINGLE = word("مجرد هستم|مجردم|ازدواج نکرده ام");
const FA_MARRIED = word("متاهل هستم|متاهل هستیم|متاهلم|ازدواج کرده ام|همسرم|خانمم|شوهرم|همسر من");
const EN_NO_CHILDREN = word("(?:i have|i've got|we have) no (?:kids|children)|(?:i|we) don'?t have (?:any )?(?:kids|children)|no kids|no children");
const FA_NO_CHILDREN = word("(?:فرزند|بچه) ندارم|(?:فرزند|بچه) نداریم|فرزندی ندارم|بچه ای ندارم");
const EN_COUNT =
  /(?<![\p{L}\p{N}])(\d|a|an|one|two|three|four|five|six)\s+(?:(?:little|young|small|grown-up|adult)\s+)?(kids?|children|child|sons?|daughters?)(?![\p{L}])(?!\s+(?:policy|policies|plan|plans|insurance|cover))/gu;
// Persian counts only with a verb of having: «دو فرزند دارم».
const FA_COUNT = /(?<![\p{L}\p{N}])(\d|یک|یه|دو|سه|چهار|پنج|شش)\s+(?:تا\s+)?(?:فرزند|بچه|پسر|دختر)(?:\s+[\p{L}]+)?\s+(?:دارم|داریم)(?![\p{L}])/gu;
// English counts only after a word of having or belonging: "I have two kids", "my wife and two kids".
const EN_COUNT_CONTEXT = /(?<![\p{L}])(?:have|has|got|my|our|with|of|and)\s+(?:[\p{L}']+\s+)?$/u;
const EN_HAS_CHILDREN = word("my (?:kids|children|son|daughter|sons|daughters|child)|our (?:kids|children)");
const FA_HAS_CHILDREN = word("فرزندانم|فرزندم|بچه هایم|بچه هام|بچه ام|بچه‌هایم|پسرم|دخترم");

function extractFamily(folded: string, language: Language): string | undefined {
  const fa = language === "fa" || /[\u0600-\u06FF]/u.test(folded);
  let status: "married" | "single" | undefined;
  if (EN_SINGLE.test(folded) || FA_SINGLE.test(folded)) status = "single";
  else if (EN_MARRIED.test(folded) || FA_MARRIED.test(folded)) status = "married";

  let children: number | "some" | "none" | undefined;
  if (EN_NO_CHILDREN.test(folded) || FA_NO_CHILDREN.test(folded)) children = "none";
  else {
    let count = 0;
    for (const m of folded.matchAll(EN_COUNT)) {
      if (EN_COUNT_CONTEXT.test(folded.slice(0, m.index))) count += EN_NUMBERS[m[1]!] ?? Number(m[1]);
    }
    for (const m of folded.matchAll(FA_COUNT)) count += FA_NUMBERS[m[1]!] ?? Number(m[1]);
    if (count > 0 && count < 20) children = count;
    else if (EN_HAS_CHILDREN.test(folded) || FA_HAS_CHILDREN.test(folded)) children = "some";
  }

  const parts: string[] = [];
  if (status !== undefined) parts.push(fa ? (status === "married" ? "متاهل" : "مجرد") : status);
  if (children === "none") parts.push(fa ? "بدون فرزند" : "no children");
  else if (children === "some") parts.push(fa ? "دارای فرزند" : "has children");
  else if (typeof children === "number") {
    if (fa) parts.push(`${FA_COUNT_WORDS[children] ?? String(children)} فرزند`);
    else parts.push(children === 1 ? "one child" : `${EN_COUNT_WORDS[children] ?? String(children)} children`);
  }
  return parts.length > 0 ? parts.join(fa ? "، " : ", ") : undefined;
}

// --- products held ------------------------------------------------------------------------------
const PRODUCT_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [word("third[- ]party|liability|ثالث"), "motor-third-party"],
  [word("body|comprehensive|collision|بدنه"), "motor-body"],
  [word("supplementary health|supplementary medical|supplementary|تکمیلی(?: درمان)?|درمان تکمیلی"), "health-supplementary"],
  [word("health|medical|درمان|درمانی"), "health"],
  [word("travel|trip|schengen|مسافرتی|سفر|مسافرت|شینگن"), "travel"],
  [word("life|عمر"), "life"],
  [word("home|house|household|fire|earthquake|building|منزل|خانه|آتش ?سوزی|زلزله|مسکونی"), "home"],
  [word("device|phone|mobile|laptop|gadget|موبایل|گوشی|لپ ?تاپ|تجهیزات"), "device"],
  [word("car|motor|vehicle|auto|خودرو|ماشین"), "motor"],
];
// A product phrase the user says they hold: "I have your travel insurance", «بیمه بدنه دارم».
const EN_HELD = [
  /(?<![\p{L}])(?:i|we)\s+(?:already\s+)?(?:have|hold|own|bought|purchased|got|have got|'ve got|took out|have taken out)\s+(?:your\s+|a\s+|an\s+|the\s+)?((?:[\p{L}-]+\s+){0,3}?)(?:insurance|policy|cover|coverage|plan)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:my|our)\s+((?:[\p{L}-]+\s+){1,3}?)(?:insurance|policy|cover|coverage|plan)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:i'?m|i am|we'?re|we are)\s+insured\s+(?:with you\s+)?for\s+((?:[\p{L}-]+\s*){1,3})/gu,
];
const FA_HELD = [
  // Everything in the clause before «دارم»: «بیمه شخص ثالث و بیمه تکمیلی درمان دارم».
  /(?<![\p{L}])(بیمه(?:\s?نامه)?\s+(?:[\p{L}]+\s+){1,10}?)(?:دارم|داریم|گرفته\s?ام|گرفتم|خریده\s?ام|خریدم)(?![\p{L}])/gu,
  // «بیمه بدنه‌ام» (folded: «بیمه بدنه ام»), «بیمه مسافرتی من»: a detached possessive only, since
  // an attached «م» is also a verb ending («می‌خواهم»).
  /(?<![\p{L}])بیمه(?:\s?نامه)?\s+((?:[\p{L}]+\s+){0,2}?[\p{L}]+)\s(?:ام|من)(?![\p{L}])/gu,
];
const EN_NOT_HELD = /(?:don'?t|do not|haven'?t|have not|never|want to|would like to|planning to|thinking of|going to|should i|can i|buy|get)\s+\S*\s*$/u;

function productsIn(span: string): string[] {
  const found: string[] = [];
  for (const [pattern, key] of PRODUCT_RULES) {
    if (!pattern.test(span)) continue;
    // "motor" only when no more specific motor product matched; same for "health".
    if (key === "motor" && found.some((k) => k.startsWith("motor-"))) continue;
    if (key === "health" && found.includes("health-supplementary")) continue;
    found.push(key);
  }
  return found;
}

function extractProducts(folded: string): string[] {
  const out: string[] = [];
  for (const pattern of [...EN_HELD, ...FA_HELD]) {
    for (const match of folded.matchAll(pattern)) {
      const before = folded.slice(Math.max(0, match.index - 30), match.index);
      if (EN_NOT_HELD.test(before)) continue;
      for (const key of productsIn(match[1] ?? "")) if (!out.includes(key)) out.push(key);
    }
  }
  return out;
}

// --- home ---------------------------------------------------------------------------------------
const EN_HOME_TYPES: Record<string, string> = { apartment: "apartment", flat: "apartment", condo: "apartment", house: "house", villa: "villa", studio: "apartment" };
// A home type the user lives in or owns, within the same sentence: "I live in an apartment in
// Tehran", "I have a car and a house in Karaj". Not "house insurance": that is a product.
const EN_LIVE =
  /(?<![\p{L}])(?:i|we)\s+(?:live|am living|are living|rent|own|have|bought|reside|stay)(?![\p{L}])[^.?!;]{0,40}?(?<![\p{L}])(apartment|flat|condo|house|villa|studio)(?![\p{L}])(?!\s+(?:insurance|policy|cover|plan))(?:\s+in\s+([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)?))?/u;
// "I live in Tehran": a city the user capitalised, without a home type.
const EN_LIVE_CITY = /(?<![\p{L}])(?:I|we|We)\s+(?:live|reside|am living|are living)\s+in\s+(\p{Lu}[\p{L}-]+)/u;
const EN_HOME_IS = /(?<![\p{L}])my\s+(?:home|house|place)\s+is\s+(?:an?\s+)?(apartment|flat|condo|house|villa|studio)/u;
const EN_STOP_CITY = new Set(["a", "an", "the", "my", "our", "and", "with", "for", "apartment", "flat", "house", "villa", "it", "there", "here"]);
const FA_CITIES =
  `تهران مشهد اصفهان شیراز تبریز کرج اهواز قم کرمانشاه رشت ارومیه زاهدان همدان یزد اردبیل بندرعباس اراک زنجان سنندج قزوین کرمان گرگان ساری بوشهر کیش خرم‌آباد بیرجند سمنان یاسوج ایلام شهرکرد بجنورد`.split(
    /\s+/u,
  );
const FA_HOME_CUE = word("زندگی می کنم|زندگی میکنم|زندگی می کنیم|ساکن|می نشینم|خانه ام|خانه‌ام|منزلم|منزل ما|آپارتمانم|اجاره|خانه من|منزل من");
const FA_HOME_TYPE = /(?<![\p{L}])(آپارتمان|ویلا|خانه ویلایی|ویلایی)(?:ی)?(?![\p{L}])/u;

function extractHome(normalized: string, folded: string): string | undefined {
  const en = EN_LIVE.exec(folded) ?? null;
  const enIs = EN_HOME_IS.exec(folded);
  if (en !== null || enIs !== null) {
    const type = EN_HOME_TYPES[(en?.[1] ?? enIs?.[1] ?? "").toLowerCase()];
    let city: string | undefined;
    const rawCity = en?.[2];
    if (rawCity !== undefined) {
      const words = rawCity.split(/\s+/u).filter((w) => !EN_STOP_CITY.has(w));
      // Keep only the words the user capitalised (or the first one): "in Tehran near work" → Tehran.
      const original = normalized.match(new RegExp(`\\bin\\s+(${words.map((w) => w.replace(/[-]/gu, "\\-")).join("\\s+")})`, "iu"))?.[1];
      const kept = (original ?? words.join(" ")).split(/\s+/u).filter((w, i) => i === 0 || /^\p{Lu}/u.test(w));
      if (kept.length > 0 && kept[0] !== "") city = titleCase(kept.join(" ").toLowerCase());
    }
    if (type !== undefined && city !== undefined) return `${type} in ${city}`;
    if (type !== undefined) return type;
  }
  const cityOnly = EN_LIVE_CITY.exec(normalized);
  if (cityOnly?.[1] !== undefined && !EN_STOP_CITY.has(cityOnly[1].toLowerCase())) return titleCase(cityOnly[1].toLowerCase());
  if (FA_HOME_CUE.test(folded)) {
    const typeMatch = FA_HOME_TYPE.exec(folded)?.[1];
    const type = typeMatch === undefined ? undefined : typeMatch.startsWith("آپارتمان") ? "آپارتمان" : "ویلا";
    const city = FA_CITIES.find((c) => new RegExp(`(?<![\\p{L}])${foldForMatch(c)}(?![\\p{L}])`, "u").test(folded));
    if (type !== undefined && city !== undefined) return `${type} در ${city}`;
    if (type !== undefined) return type;
    if (city !== undefined) return city;
  }
  return undefined;
}

// --- preferred language -------------------------------------------------------------------------
const PREFERS_EN = word("(?:answer|reply|respond|speak|write|talk)(?: to me)? in english|in english please|به انگلیسی|انگلیسی جواب|انگلیسی بنویس");
const PREFERS_FA = word("(?:answer|reply|respond|speak|write|talk)(?: to me)? in (?:persian|farsi)|in (?:persian|farsi) please|به فارسی|فارسی جواب|فارسی بنویس");

export function extractMemory(input: ExtractMemoryInput): ExtractMemoryOutput {
  const normalized = redactNumbers(normalizeText(input.text));
  const folded = foldForMatch(normalized).replace(/[\u2018\u2019]/gu, "'");
  if (FORGET.test(folded)) return { facts: {} };

  const facts: UserProfile = {};
  const vehicle = extractVehicle(folded);
  if (vehicle !== undefined) facts.vehicle = vehicle.slice(0, 120);
  const family = extractFamily(folded, input.language);
  if (family !== undefined) facts.family = family.slice(0, 120);
  const products = extractProducts(folded);
  if (products.length > 0) facts.productsHeld = products.slice(0, 12);
  const home = extractHome(normalized, folded);
  if (home !== undefined) facts.home = home.slice(0, 120);
  if (PREFERS_EN.test(folded)) facts.preferredLanguage = "en";
  else if (PREFERS_FA.test(folded)) facts.preferredLanguage = "fa";
  return { facts };
}
