// Cycles of one frame tag (and of one SHA-256 block) with the sketch's own SHA-256/HMAC on an ATmega328P at 16 MHz,
// counted by timer1 (one count per 64 cycles) and printed on the UART; run it in simavr (README).
#define setup sketch_setup
#define loop sketch_loop
#include "../dealer_assist.ino"
#undef setup
#undef loop
#include <avr/sleep.h>
volatile unsigned long timerMillis = 0;
AvrSerial Serial;
AvrEeprom EEPROM;
void setup() {}
void loop() {}
int main() {
  Serial.begin(115200);
  const char covered[] = "07 DICE 002A9C41 00000001 00000001 3 5 6";
  uint8_t tag[8];
  memset(sessionKey, 7, 32);
  keepPaddedKeyState(0x36, sessionInner);
  keepPaddedKeyState(0x5c, sessionOuter);
  TCCR1A = 0; TCCR1B = _BV(CS11) | _BV(CS10);  // one count per 64 CPU cycles
  TCNT1 = 0;
  frameTag('D', covered, sizeof covered - 1, tag);
  uint16_t t = TCNT1;
  TCNT1 = 0;
  shaBegin(hmacState);
  uint16_t one = 0;
  shaCompress(hmacState);
  one = TCNT1;
  char text[64];
  snprintf(text, sizeof text, "tag %lu cycles, one block %lu cycles\r\n", 64UL * t, 64UL * one);
  Serial.print(text);
  cli(); sleep_cpu();
}
