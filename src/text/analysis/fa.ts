/** Persian stopwords (normalised forms: ی and ک, no diacritics). */
export const FA_STOPWORDS: ReadonlySet<string> = new Set(
  `و در به از که این آن را با برای است هست بود شد شود می نمی ها های هایی تا یا اگر هم نیز چه چی چیه چطور چگونه چرا کجا کی
کدام کدوم هر همه یک یه ای ام ات اش مان تان شان مون تون شون من تو او ما شما ایشان آنها اینها خود خودم بر پس پیش روی زیر بین باید
نباید میشه می‌شود شده شده‌است کرد کند کنم کنید کنیم کنند کردن داد دهد دارد دارم داریم دارند داشت نیست نیستم هستم هستند
بوده باشد باشم باشند ولی اما چون زیرا مثل درباره دربارهٔ اینکه آیا لطفا لطفاً سلام ممنون مرسی خیلی بسیار چند چقدر چه‌قدر
را،
توان توانم توانی تواند توانیم توانید توانند توانست خواهم خواهی خواهد خواهیم خواهید خواهند شوم شوی شویم شوید شوند
کنی کرده کردم کردید کردند دهم دهی دهیم دهید دهند داده گردد
فقط دقیقا دقیقاً واقعا واقعاً حالا خب بگو بگید بگویید
بابت نه بله آره اگه مگه دیگه اون اونها اینا اونا اینو اونو همین همون همینطور وقتی الان هنوز
بگیرم بگیرید بگیریم بگیره بگیرن بدم بدید بدن بکنم بکنید بشه بشم`
    .split(/\s+/u)
    .filter((w) => w !== ""),
);

// [suffix, shortest stem it may leave]. The adjectival/relational ی (قسطی, درمانی) is only
// stripped from longer words: short words ending in ی are more often stems of their own.
const SUFFIXES: readonly (readonly [string, number])[] = [
  ["هایی", 3],
  ["های", 3],
  ["ها", 3],
  ["ترین", 3],
  ["تر", 3],
  ["ی", 4],
];

// Present/past verb person endings. The continuous prefix می/نمی is only stripped from words
// that end like a verb, so nouns that merely start with می (میزان, میلیون) keep their form.
const VERB_PREFIX = /^(?:نمی|می)(?=\p{L}{3,})/u;
const VERB_ENDING = /(?:د|ند|م|یم|ید)$/u;

export function analyzePersianWord(word: string): string | null {
  if (FA_STOPWORDS.has(word)) return null;
  if (/^\d/u.test(word)) return word;
  // می/نمی on a word that is itself a stopword (میتوان, نمیشود) is an auxiliary, whatever it ends in.
  if (VERB_PREFIX.test(word) && FA_STOPWORDS.has(word.replace(VERB_PREFIX, ""))) return null;
  let stem = word;
  // Writers often drop the ZWNJ in می‌پردازد → میپردازد; without this the two spellings of
  // the same verb never match. With the ZWNJ, the prefix is already a separate stopword.
  if (VERB_PREFIX.test(stem) && VERB_ENDING.test(stem)) {
    stem = stem.replace(VERB_PREFIX, "");
    if (FA_STOPWORDS.has(stem)) return null;
  }
  // Light suffix stripping: plural and comparative markers only; stripping more (ezafe, verb
  // prefixes) breaks too many stems to be worth it without a dictionary.
  for (const [suffix, minStem] of SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= minStem) {
      stem = stem.slice(0, -suffix.length);
      break;
    }
  }
  if (FA_STOPWORDS.has(stem)) return null;
  return stem.length >= 2 ? stem : null;
}
