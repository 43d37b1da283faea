// When an action kept on a phone was taken, by the server's clock (decisions 076 and 105): the server's own time
// less how long the phone kept it. The phone's clock may be off by any amount; only the time it counted is used.

/** `now` less `keptForSeconds`; with `notBefore`, never earlier than it (the record did not exist before). */
export function takenAt(keptForSeconds: number, now: Date, notBefore?: Date): Date {
  const taken = new Date(now.getTime() - keptForSeconds * 1000);
  return notBefore && taken < notBefore ? notBefore : taken;
}
