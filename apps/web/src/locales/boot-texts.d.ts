/** Start-up's texts in one language, cut from locales/boot.ts by bootTexts.ts. */
declare module 'virtual:atalaya/boot-texts-*' {
  const texts: Record<string, string>;
  export default texts;
}
