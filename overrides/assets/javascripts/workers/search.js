// The search box's worker: Material's own (its file name is in this script's query string,
// `?worker=search.<hash>.min.js`; hooks/search_scope.py points the pages here), with what a
// reader needs around it:
//
// - A Chinese query is cut into the words of the index (the longest first) before Material
//   sees it, and its function words (不、的、是、为什么 …) are dropped: Material's own cut never
//   takes a query's last word, and a lone 不 matched every heading that has 不 in it. Each
//   word reaches Material's cut alone, followed by 〇 (a Han character no word starts with),
//   so that it stays whole: 不匹配 is searched as 不匹配, not as 不.
// - The worker ranks what Material's search (lunr) finds, by what matters to a reader (a
//   heading's word counts a thousand times a text's in lunr, so a concept question landed on
//   an error-table entry whose long heading had its common words):
//   - the words that matter: function and stop words (the, how, 的, 怎么, difference, vs) do
//     not count; an English word counts for its forms (saved: save, saving);
//   - a rare word counts more than a frequent one (log(1 + sections / sections with it)), and
//     a section that lacks some of the query's words loses by the square of their share;
//   - where a word is: a heading (and a section's search terms, data/search_terms.yml, and
//     the glossary terms it teaches) 6, its page's title 2, its text 1; an error-table
//     entry's heading is its message, which counts as its text, and its name;
//   - a heading that says little besides the query counts more (× 1 + the share of its words
//     the query has), and one that holds the query in order (3/4 of its words in a row: a
//     pasted message, an entry's name) × 5 (× the share squared); an error-table entry gets
//     its page's boost only then; a page's exercises and takeaways count half
//     (hooks/search_scope.py).
// - Results lose the zero-width spaces between Chinese words (they would be copied with a
//   title or a teaser), and the words highlighted on the page a result opens (`?h=`) are
//   the words that matter: no stop word (a, the, 的), no single letter.
const FUNCTION_WORDS = new Set([
  "不", "的", "了", "是", "吗", "呢", "吧", "啊", "和", "与", "及", "或", "在", "把", "被",
  "对", "为", "给", "从", "用", "要", "会", "能", "就", "都", "也", "还", "又", "时", "么",
  "什么", "为什么", "怎么", "怎么办", "怎样", "如何", "哪", "哪个", "哪些", "何时", "什么时候",
  "可以", "需要", "应该", "我", "你", "它", "我们", "这", "那", "这个", "那个", "一个", "个",
  "有", "没有", "之", "中", "里", "上", "下", "得", "地", "着", "过", "区别", "时候",
  // what frames an English question, beside lunr's stop words (how, what, the, ...)
  "difference", "between", "vs", "versus", "mean", "means", "meaning", "use", "using",
])
const HAN = /\p{sc=Han}+/gu
const WHOLE = "\u3007"
// a word of a section's heading, of its search terms (data/search_terms.yml, the glossary's
// terms it teaches: before the headings that mention them), of its page's title, of its text
const FIELDS = { title: 6, tags: 6, page: 2, text: 1 }
const PHRASE = 5    // a heading that holds the query in order: a pasted message, an entry's name
let vocabulary = new Set(FUNCTION_WORDS)
let longest = 4
let separator = /\s+/
let asked = []      // the query's words, function words included
let wanted = []     // the words that matter: the query's, less its function and stop words
const sections = new Map()  // location -> {title, tags, page, text: Map(word -> count), ...}
const rarity = new Map()    // query word -> its weight (rarer: more)

function count(text) {
  const found = new Map()
  for (const word of split(text))
    found.set(word, (found.get(word) || 0) + 1)
  return found
}

function learn({ config, docs }) {
  separator = new RegExp(config.separator, "g")
  for (const doc of docs) {
    const tags = (doc.tags || []).join(" ")
    for (const part of `${doc.title} ${doc.text} ${tags}`.replace(/<[^>]*>/g, " ").split(separator))
      if (/^\p{sc=Han}+$/u.test(part) && part.length <= 12) {
        vocabulary.add(part)
        longest = Math.max(longest, part.length)
      }
    // an error-table entry's heading is its message, then its name: the message counts as
    // its text, unless the query is (part of) it
    const [, message, name] = doc.message ? doc.title.match(/^(<code>.*?<\/code>)(.*)$/s) : []
    const heading = doc.message ? name : doc.title
    const page = sections.get(doc.location.split("#")[0])?.title || new Map()
    const fields = { page, headings: [heading, ...doc.tags || []].map(split),
      phrases: [doc.title, ...doc.tags || []].map(split),
      title: count(heading), tags: count(tags), text: count(`${message || ""} ${doc.text}`) }
    fields.words = [...new Set([...fields.title.keys(), ...fields.tags.keys(), ...fields.text.keys()])]
    sections.set(doc.location, fields)
  }
}

function cut(run, all = false) {
  const found = []
  for (let i = 0; i < run.length;) {
    let j = Math.min(run.length, i + longest)
    while (j > i + 1 && !vocabulary.has(run.slice(i, j)))
      j--
    found.push(run.slice(i, j))
    i = j
  }
  return all ? found : found.filter(word => !FUNCTION_WORDS.has(word))
}

function stem(word) {  // saved, saving -> sav; gradients -> gradient (a word begins its forms)
  const suffix = /^[a-z]+$/.test(word) && ["ing", "ed", "es", "s"].find(end => word.endsWith(end))
  return suffix && word.length - suffix.length >= 4 ? word.slice(0, -suffix.length) : word
}

function stop(word) {
  return FUNCTION_WORDS.has(word) || !!self.lunr?.stopWordFilter && !self.lunr.stopWordFilter(word)
}

function words(query) {
  const text = query.replace(HAN, run => ` ${cut(run, true).join(" ")} `)
  asked = split(text).map(stem)
  wanted = asked.filter(word => !stop(word))
  if (!wanted.length)
    wanted = asked
  rarity.clear()
  for (const word of new Set(wanted)) {  // sections with a word that begins with it
    let n = 0
    for (const fields of sections.values())
      n += fields.words.some(other => other.startsWith(word))
    rarity.set(word, Math.log(1 + sections.size / Math.max(1, n)))
  }
  const found = wanted.map(word => /\p{sc=Han}/u.test(word) ? `${word}${WHOLE}` : word).join(" ")
  return found || query
}

function split(text) {
  return text.replace(/<[^>]*>/g, " ").toLowerCase().split(separator).filter(Boolean)
}

function run(a, b) {  // the longest run of words of a that b has in order (b's may go on)
  let best = 0
  let previous = new Array(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    const row = new Array(b.length + 1).fill(0)
    for (let j = 1; j <= b.length; j++)
      if (b[j - 1].startsWith(a[i - 1]))
        best = Math.max(best, row[j] = previous[j - 1] + 1)
    previous = row
  }
  return best
}

function match(word, found, repeated) {  // the word itself (or plural): 1; longer: less
  let best = 0
  for (const [other, n] of found)
    if (other.startsWith(word)) {
      const longer = other.length - word.length
      const part = /\p{sc=Han}/u.test(word) ? (longer ? 0.1 : 1) : longer <= 3 ? 1 : 0.4
      best = Math.max(best, part * (repeated ? Math.min(3, n) ** 0.5 : 1))
    }
  return best
}

function score(item) {
  const fields = sections.get(item.location)
  if (!fields)
    return item.score
  let total = 0, matched = 0, all = 0
  for (const word of new Set(wanted)) {
    const weight = rarity.get(word) || 1
    const best = Math.max(
      ...Object.entries(FIELDS).map(([f, w]) => w * match(word, fields[f], f === "text")))
    total += weight * best
    matched += best > 0 ? weight : 0
    all += weight
  }
  // the share of the query its heading (or a search term) holds in order, if 3/4 or more
  const held = Math.max(...fields.phrases.map(said => run(asked, said))) / asked.length
  const phrase = asked.length > 1 && held >= 0.75
  // of its headings (its search terms are headings too), the one whose words the query holds
  const share = Math.max(...(phrase ? [split(item.title)] : fields.headings).map(said => {
    const content = said.filter(word => !stop(word))
    return content.filter(word => asked.some(term => word.startsWith(term))).length /
      Math.max(1, content.length)
  }))
  // an error-table entry (its heading the message) gets its page's boost where its heading
  // holds the query: a message, or part of it, pasted; the entry's name
  const boost = item.message && !phrase ? 1 : item.boost || 1
  return total * (matched / all) ** 2 * (1 + share) * (phrase ? PHRASE * held ** 2 : 1) * boost
}

function clean(result) {
  for (const group of result.items) {
    for (const item of group) {
      if (item.score)
        item.score = score(item)
      for (const field of ["title", "text"])
        if (typeof item[field] === "string")
          item[field] = item[field].replaceAll("\u200b", "")
      delete item.tags  // its search terms (never shown)
      item.terms = Object.fromEntries(
        Object.entries(item.terms || {}).filter(([term]) => term.length > 1 && !stop(term)))
    }
    group.sort((a, b) => b.score - a.score)
  }
  result.items.sort((a, b) => b[0].score - a[0].score)
  return result
}

const listen = self.addEventListener.bind(self)
self.addEventListener = (type, listener, ...options) => listen(type, type !== "message"
  ? listener
  : event => {
    const message = event.data
    if (message.type === 0)
      learn(message.data)
    if (message.type === 2)
      return listener({ data: { ...message, data: words(message.data) } })
    return listener(event)
  }, ...options)

const post = self.postMessage.bind(self)
self.postMessage = message => post(message && message.type === 3
  ? { ...message, data: clean(message.data) }
  : message)

importScripts(new URLSearchParams(location.search).get("worker"))
