// main(), the millisecond timer and the globals of the avr stand-in (Arduino.h here).
#include "Arduino.h"
#include "EEPROM.h"

volatile unsigned long timerMillis = 0;
AvrSerial Serial;
AvrEeprom EEPROM;

ISR(TIMER0_COMPA_vect) { timerMillis++; }

int main() {
  TCCR0A = _BV(WGM01);                // CTC: 16 MHz / 64 / 250 = 1 kHz
  TCCR0B = _BV(CS01) | _BV(CS00);
  OCR0A = 249;
  TIMSK0 = _BV(OCIE0A);
  ADMUX = _BV(REFS0);
  ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
  sei();
  setup();
  for (;;) loop();
}
