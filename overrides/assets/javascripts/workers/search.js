// The search box's worker: Material's own (its file name is in this script's query string,
// `?worker=search.<hash>.min.js`; hooks/search_scope.py points the pages here), with what a
// reader needs around it:
//
// - A Chinese query is cut into the words of the index (the longest first) before Material
//   sees it, and its function words (不、的、是、为什么 …) are dropped: Material's own cut never
//   takes a query's last word, and a lone 不 matched every heading that has 不 in it. Each
//   word reaches Material's cut alone, followed by 〇 (a Han character no word starts with),
//   so that it stays whole: 不匹配 is searched as 不匹配, not as 不.
// - Of two sections that match a query equally, the one whose heading says less besides
//   comes first: a heading's words count a thousand times a text's and a repeated word
//   counts more, so `a view of a leaf Variable that requires grad ...` (one more "a")
//   came before the entry `a leaf Variable that requires grad ...` that was pasted. Each
//   score is multiplied by 1 + the share of its heading's words that the query has, and
//   by 3 where the heading holds the query in order (three quarters of its words, in a
//   row: a pasted message with its exception type, an entry's Chinese name).
// - Results lose the zero-width spaces between Chinese words (they would be copied with a
//   title or a teaser), and the words highlighted on the page a result opens (`?h=`) are
//   the words that matter: no stop word (a, the, 的), no single letter.
const FUNCTION_WORDS = new Set([
  "不", "的", "了", "是", "吗", "呢", "吧", "啊", "和", "与", "及", "或", "在", "把", "被",
  "对", "为", "给", "从", "用", "要", "会", "能", "就", "都", "也", "还", "又", "时", "么",
  "什么", "为什么", "怎么", "怎么办", "怎样", "如何", "哪", "哪个", "哪些", "何时", "什么时候",
  "可以", "需要", "应该", "我", "你", "它", "我们", "这", "那", "这个", "那个", "一个", "个",
  "有", "没有", "之", "中", "里", "上", "下", "得", "地", "着", "过", "区别", "时候",
])
const HAN = /\p{sc=Han}+/gu
const WHOLE = "\u3007"
const EXACT = 10    // the word itself weighs ten times the longer words it begins (which
                    // are not looked for in a section's tags: its glossary terms, whole)
const PHRASE = 3    // a heading that holds the whole query, in order
let vocabulary = new Set(FUNCTION_WORDS)
let longest = 4
let separator = /\s+/
let asked = []

function learn({ config, docs }) {
  separator = new RegExp(config.separator, "g")
  for (const doc of docs)
    for (const part of `${doc.title} ${doc.text}`.replace(/<[^>]*>/g, " ").split(separator))
      if (/^\p{sc=Han}+$/u.test(part) && part.length <= 12) {
        vocabulary.add(part)
        longest = Math.max(longest, part.length)
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

function words(query) {
  asked = split(query.replace(HAN, run => ` ${cut(run, true).join(" ")} `))
  const found = query.replace(HAN, run => ` ${cut(run).map(word => word.length > 1
    ? `${word}${WHOLE}^${EXACT} title:${word}${WHOLE} text:${word}${WHOLE}`
    : word).join(" ")} `).trim().replace(/\s+/g, " ")
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

function weight(title) {
  const said = split(title)
  const content = said.filter(word => !FUNCTION_WORDS.has(word))
  const share = content.filter(word => asked.some(term => word.startsWith(term))).length /
    Math.max(1, content.length)
  const phrase = asked.length > 1 && run(asked, said) >= 0.75 * asked.length
  return (1 + share) * (phrase ? PHRASE : 1)
}

function worthHighlighting(term) {
  return term.length > 1 && !FUNCTION_WORDS.has(term) &&
    !(self.lunr?.stopWordFilter && !self.lunr.stopWordFilter(term))
}

function clean(result) {
  for (const group of result.items) {
    for (const item of group) {
      if (item.score)
        item.score *= weight(item.title)
      for (const field of ["title", "text"])
        if (typeof item[field] === "string")
          item[field] = item[field].replaceAll("\u200b", "")
      delete item.tags  // the glossary's words of a section that teaches them (the zh index)
      item.terms = Object.fromEntries(
        Object.entries(item.terms || {}).filter(([term]) => worthHighlighting(term)))
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
