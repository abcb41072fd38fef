import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.standard.*;
import org.apache.lucene.analysis.tokenattributes.*;
import org.apache.lucene.analysis.pl.PolishAnalyzer;
import org.apache.lucene.analysis.stempel.StempelStemmer;

/** stdin: lines "MODE hex-utf16"; stdout: one line per input. */
public class Harness {
  static String hex(String s) { StringBuilder b = new StringBuilder(); for (char c : s.toCharArray()) b.append(String.format("%04x", (int) c)); return b.toString(); }
  static String unhex(String h) { StringBuilder b = new StringBuilder(); for (int i = 0; i < h.length(); i += 4) b.append((char) Integer.parseInt(h.substring(i, i + 4), 16)); return b.toString(); }
  static String run(TokenStream ts) throws IOException {
    CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
    OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
    TypeAttribute type = ts.addAttribute(TypeAttribute.class);
    StringBuilder out = new StringBuilder();
    ts.reset();
    while (ts.incrementToken()) out.append(off.startOffset()).append(':').append(off.endOffset()).append(':').append(type.type()).append(':').append(hex(term.toString())).append(' ');
    ts.end(); ts.close();
    return out.toString().trim();
  }
  public static void main(String[] args) throws IOException {
    Analyzer english = new EnglishAnalyzer(), standard = new StandardAnalyzer(), simple = new SimpleAnalyzer(), polish = new PolishAnalyzer();
    StempelStemmer stempel = new StempelStemmer(PolishAnalyzer.getDefaultTable());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
    for (String line; (line = in.readLine()) != null; ) {
      int sp = line.indexOf(' ');
      String mode = line.substring(0, sp); String text = unhex(line.substring(sp + 1));
      switch (mode) {
        case "tok": { StandardTokenizer t = new StandardTokenizer(); t.setReader(new StringReader(text)); out.println(run(t)); break; }
        case "english": out.println(run(english.tokenStream("f", text))); break;
        case "standard": out.println(run(standard.tokenStream("f", text))); break;
        case "simple": out.println(run(simple.tokenStream("f", text))); break;
        case "polish": out.println(run(polish.tokenStream("f", text))); break;
        case "stempel": { StringBuilder b = stempel.stem(text); out.println(b == null ? "-" : hex(b.toString())); break; }
        case "porter": { KeywordTokenizer k = new KeywordTokenizer(); k.setReader(new StringReader(text)); TokenStream ts = new PorterStemFilter(k); CharTermAttribute t = ts.addAttribute(CharTermAttribute.class); ts.reset(); ts.incrementToken(); out.println(hex(t.toString())); ts.end(); ts.close(); break; }
        case "lower": { StringBuilder b = new StringBuilder(); text.codePoints().forEach(cp -> b.appendCodePoint(Character.toLowerCase(cp))); out.println(hex(b.toString())); break; }
        default: throw new IllegalArgumentException(mode);
      }
    }
    out.flush();
  }
}
