// The language switch keeps the reader's place (issue 32). Both languages give a section the
// same id, so the switcher's link gets the section: the one in the address (#anchor) or,
// without one, the section the reader has scrolled to (the last heading above the top of
// the window). Set when the link is pressed, clicked or focused (the keyboard's Enter).
(() => {
  const place = () => {
    if (location.hash) return location.hash
    const top = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0
    let found = ""
    for (const heading of document.querySelectorAll(".md-content :is(h2, h3, h4)[id]")) {
      if (!heading.getClientRects().length) continue // in a closed block: not on the screen
      if (heading.getBoundingClientRect().top > top + 1) break
      found = "#" + heading.id
    }
    return found
  }
  const keep = (event) => {
    const link = event.target.closest?.("a.md-select__link[hreflang]")
    if (link) link.href = link.href.split("#")[0] + place()
  }
  for (const type of ["pointerdown", "click", "focusin"]) {
    document.addEventListener(type, keep, true)
  }
})()
