/**
 * A frame as it may be written to a log: the text of every password or auth code element
 * (<pw>, <newPW> of login and of the objects' authInfo) replaced. Applied to the serialised XML
 * because the log sees frames in both directions, whoever built them.
 */
export function redactFrame(xml: string): string {
  return xml.replace(/<((?:[\w-]+:)?(?:pw|newPW))(\s[^>]*)?>[^<]*<\/\1>/g, '<$1$2>***</$1>');
}
